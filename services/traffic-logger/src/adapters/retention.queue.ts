import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import type { Logger } from '@mockyard/service-kit';
import { retentionJob, runRetention, type RetentionPolicy } from '../jobs/retention.job';
import type { ExchangeRepo } from './exchange.repo';

export interface RetentionQueueOptions {
  connection: ConnectionOptions;
  bullPrefix: string;
  intervalMs: number;
  policy: RetentionPolicy;
  repo: Pick<ExchangeRepo, 'deleteStartedBefore' | 'deleteBeyondNewest'>;
  logger: Logger;
}

/**
 * Runs retention as a BullMQ repeatable job: every instance upserts the same scheduler (one schedule
 * in Redis however many loggers run) and runs a worker; BullMQ hands each run to one of them.
 */
export class RetentionQueue {
  private queue?: Queue;
  private worker?: Worker;
  /** Aborted by stop(): a run deleting a large backlog ends after its current chunk. */
  private readonly stopping = new AbortController();

  constructor(private readonly options: RetentionQueueOptions) {}

  async start(): Promise<void> {
    const { connection, bullPrefix, intervalMs, policy, repo, logger } = this.options;
    if (policy.maxAgeMs <= 0 && policy.maxRows <= 0) {
      logger.info('traffic retention disabled (no max age, no max rows)');
      return;
    }
    this.queue = new Queue(retentionJob.queue, { connection, prefix: bullPrefix });
    this.queue.on('error', (err) => logger.warn({ err: err.message }, 'retention queue error'));
    await this.queue.upsertJobScheduler(retentionJob.schedulerId, { every: intervalMs }, { name: retentionJob.name, data: {}, opts: { removeOnComplete: 10, removeOnFail: 50 } });
    this.worker = new Worker(
      retentionJob.queue,
      async (job) => {
        retentionJob.dataSchema.parse(job.data);
        const outcome = await runRetention(repo, policy, new Date(), this.stopping.signal);
        if (outcome.interrupted) logger.info({ ...outcome }, 'traffic retention stopped early (shutting down); the rest on the next run');
        if (outcome.deletedByAge + outcome.deletedByRows > 0) logger.info({ ...outcome }, 'traffic retention applied');
        return outcome;
      },
      { connection, prefix: bullPrefix, concurrency: 1 },
    );
    this.worker.on('error', (err) => logger.warn({ err: err.message }, 'retention worker error'));
    this.worker.on('failed', (_job, err) => logger.warn({ err: err.message }, 'retention run failed'));
    // Started means connected: a stop() while BullMQ's blocking connection is still initialising made that
    // connection emit 'error' after the worker had dropped its listeners (an unhandled error event).
    await this.worker.waitUntilReady();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.worker?.close();
    await this.queue?.close();
  }
}
