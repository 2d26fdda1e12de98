import { randomUUID } from 'node:crypto';
import type { TrafficPublisherCounters } from '@mockyard/bus';
import { sumCounters } from './sum-counters';
import { isWorkerMessage, type WorkerMessage } from './worker-messages';

/** The gateway-wide capture counters, with how many workers there are and how many answered. */
export type GatewayCounters = TrafficPublisherCounters & { workers: { count: number; reporting: number } };

export interface WorkerLink {
  /** The counters of every worker summed by the primary; this worker's own if the primary does not answer in time. */
  gatewayCounters(): Promise<GatewayCounters>;
  close(): void;
}

type Channel = Pick<NodeJS.Process, 'on' | 'off'> & { send?: (message: WorkerMessage) => boolean; connected?: boolean };

/**
 * A worker's side of the counters exchange: answers the primary's "report your counters" and asks it for
 * the sum. `own` gives this worker's counters (undefined when capture is off); `channel` is the IPC
 * channel to the primary (the worker's `process`).
 */
export function createWorkerLink(own: () => TrafficPublisherCounters | undefined, workerCount: number, channel: Channel = process, timeoutMs = 1000): WorkerLink {
  const waiting = new Map<string, (message: Extract<WorkerMessage, { mockyard: 'counters-total' }>) => void>();
  const onMessage = (message: unknown) => {
    if (!isWorkerMessage(message)) return;
    if (message.mockyard === 'report-counters') send({ mockyard: 'counters', id: message.id, counters: own() });
    else if (message.mockyard === 'counters-total') waiting.get(message.id)?.(message);
  };
  const send = (message: WorkerMessage) => {
    if (channel.send && channel.connected !== false) channel.send(message);
  };
  channel.on('message', onMessage);
  return {
    gatewayCounters() {
      const fallback = (): GatewayCounters => ({ ...(own() ?? sumCounters([])), workers: { count: workerCount, reporting: 1 } });
      if (!channel.send || channel.connected === false) return Promise.resolve(fallback());
      const id = randomUUID();
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          resolve(fallback());
        }, timeoutMs);
        waiting.set(id, (answer) => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve({ ...answer.counters, workers: { count: answer.workers, reporting: answer.reporting } });
        });
        send({ mockyard: 'counters?', id });
      });
    },
    close: () => channel.off('message', onMessage),
  };
}
