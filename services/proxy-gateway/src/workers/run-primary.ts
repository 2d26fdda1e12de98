import cluster, { type Worker } from 'node:cluster';
import type { TrafficPublisherCounters } from '@mockyard/bus';
import type { Logger } from '@mockyard/service-kit';
import { sumCounters } from './sum-counters';
import { isWorkerMessage, WORKER_INDEX_ENV, type WorkerMessage } from './worker-messages';

/**
 * V8 flags every worker starts with (BENCHMARKS.md, "GC flags of the gateway's workers", has the measurements).
 * `--single-threaded-gc`: the workers are already one per CPU, so V8's helper threads for parallel scavenges and
 * concurrent marking (four per process) only competed with the other workers for the same cores, and a
 * scavenge whose helpers were descheduled stalled its main thread with them. `--initial-old-space-size=64`:
 * V8 sizes the old generation's limit from the ~20 MB of live objects (~45 MB) and counts the off-heap Buffer
 * memory not yet collected against it, which at 100 KiB bodies swings by 25–50 MB between young collections,
 * so a worker ran several major collections a second; a floor leaves room for the swing. It was 128 MB until
 * the floor itself showed as the gateway's footprint: with small bodies a worker's heap grows to the floor
 * before its first major collection, so at 3,000 requests/s the gateway's private memory went 342 MB after
 * 60 s and 367 MB after 150 s (over 300 MB RSS), against 235 and 238 MB with 64 (224 with no floor). The
 * price is at 100 KiB: 128 served 1.12x the requests/s of 64 there, 64 1.04x of no floor (same-run A/Bs,
 * BENCHMARKS.md, "The workers' old-generation floor"). Both come before
 * the node flags the gateway itself was started with, which therefore win (`--no-single-threaded-gc`,
 * `--initial-old-space-size=0` restore V8's defaults).
 */
export const WORKER_NODE_FLAGS = ['--single-threaded-gc', '--initial-old-space-size=64'];

export interface PrimaryOptions {
  workers: number;
  logger: Logger;
  /** Each worker drains within this; the primary waits this long plus a margin before SIGKILL. */
  shutdownTimeoutMs: number;
  /** Pause before a worker that died is started again (default 1 s: a crash loop does not spin). */
  restartDelayMs?: number;
  /** How long a counters query waits for the workers (default 1 s). */
  countersTimeoutMs?: number;
  /** Called with the exit code once every worker has stopped (default: process.exit). */
  exit?: (code: number) => void;
}

export interface Primary {
  /** SIGTERMs every worker, waits for them (bounded), then exits. */
  stop(reason: string): void;
}

/**
 * The primary of a multi-process gateway: forks `workers` copies of this program (Node cluster; they
 * share ports 8080 and 8888, the primary hands out connections round-robin), starts a replacement when
 * one dies, and on SIGTERM/SIGINT stops them all and exits once they have drained. A worker that exits
 * before it ever listened (a taken port, a bad setting) stops the whole gateway with exit code 1 rather
 * than being restarted forever. It also sums the workers' capture counters for /health/ready.
 */
export function runPrimary(options: PrimaryOptions): Primary {
  const { logger } = options;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const indexOf = new Map<Worker, number>();
  const listened = new Set<number>();
  const queries = new Map<string, { asker: Worker; replies: TrafficPublisherCounters[]; expected: number; timer: NodeJS.Timeout }>();
  let stopping = false;
  let exitCode = 0;
  let killTimer: NodeJS.Timeout | undefined;

  const fork = (index: number) => {
    const worker = cluster.fork({ [WORKER_INDEX_ENV]: String(index) });
    indexOf.set(worker, index);
    worker.on('message', (message: unknown) => onMessage(worker, message));
    worker.once('listening', () => listened.add(index));
    // An IPC error (the worker died mid-send) must not take the primary down; 'exit' follows.
    worker.on('error', (err) => logger.debug({ err, index }, 'gateway worker channel error'));
  };

  const onExit = (worker: Worker, code: number | null, signal: string | null) => {
    const index = indexOf.get(worker);
    if (index === undefined) return;
    indexOf.delete(worker);
    if (stopping) {
      if (code !== 0) exitCode = 1;
      if (indexOf.size === 0) finish();
      return;
    }
    if (!listened.has(index)) {
      logger.error({ worker: index, code, signal }, 'gateway worker exited before it listened; stopping the gateway');
      exitCode = 1;
      stop('a worker failed to start');
      return;
    }
    logger.error({ worker: index, code, signal }, 'gateway worker exited; starting a new one');
    setTimeout(() => {
      if (!stopping) fork(index);
    }, options.restartDelayMs ?? 1000);
  };

  const onMessage = (from: Worker, message: unknown) => {
    if (!isWorkerMessage(message)) return;
    if (message.mockyard === 'counters?') {
      const live = [...indexOf.keys()].filter((w) => w.isConnected());
      const timer = setTimeout(() => answer(message.id), options.countersTimeoutMs ?? 1000);
      queries.set(message.id, { asker: from, replies: [], expected: live.length, timer });
      for (const w of live) send(w, { mockyard: 'report-counters', id: message.id });
    } else if (message.mockyard === 'counters') {
      const query = queries.get(message.id);
      if (!query) return;
      if (message.counters) query.replies.push(message.counters);
      query.expected -= message.counters ? 0 : 1;
      if (query.replies.length >= query.expected) answer(message.id);
    }
  };

  const answer = (id: string) => {
    const query = queries.get(id);
    if (!query) return;
    queries.delete(id);
    clearTimeout(query.timer);
    send(query.asker, { mockyard: 'counters-total', id, counters: sumCounters(query.replies), workers: options.workers, reporting: query.replies.length });
  };

  const send = (worker: Worker, message: WorkerMessage) => {
    if (worker.isConnected()) worker.send(message);
  };

  const finish = () => {
    clearTimeout(killTimer);
    logger.info({ exitCode }, 'gateway workers stopped');
    exit(exitCode);
  };

  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ reason, workers: indexOf.size }, 'stopping gateway workers');
    if (indexOf.size === 0) return finish();
    for (const worker of indexOf.keys()) worker.process.kill('SIGTERM');
    killTimer = setTimeout(() => {
      logger.warn({ workers: indexOf.size }, 'gateway workers did not stop in time; killing them');
      for (const worker of indexOf.keys()) worker.process.kill('SIGKILL');
      exitCode = 1;
    }, options.shutdownTimeoutMs + 2000);
  };

  // Before the node flags the gateway was started with, so that a `--no-single-threaded-gc` there wins.
  cluster.setupPrimary({ execArgv: [...WORKER_NODE_FLAGS, ...process.execArgv] });
  cluster.on('exit', onExit);
  for (let index = 0; index < options.workers; index++) fork(index);
  return { stop };
}
