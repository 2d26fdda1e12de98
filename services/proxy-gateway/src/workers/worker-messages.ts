import type { TrafficPublisherCounters } from '@mockyard/bus';

/**
 * What the primary and the workers say to each other over the cluster's IPC channel. A worker asked for
 * the gateway's capture counters asks the primary, which asks every worker and answers with the sum.
 */
export type WorkerMessage =
  | { mockyard: 'counters?'; id: string }
  | { mockyard: 'report-counters'; id: string }
  | { mockyard: 'counters'; id: string; counters: TrafficPublisherCounters | undefined }
  | { mockyard: 'counters-total'; id: string; counters: TrafficPublisherCounters; workers: number; reporting: number };

export function isWorkerMessage(message: unknown): message is WorkerMessage {
  return typeof message === 'object' && message !== null && typeof (message as { mockyard?: unknown }).mockyard === 'string' && typeof (message as { id?: unknown }).id === 'string';
}

/**
 * Environment a worker is started with: its stable index (0…count-1, kept across restarts). The count a
 * worker works out itself from the same configuration as the primary.
 */
export const WORKER_INDEX_ENV = 'MOCKYARD_WORKER_INDEX';
