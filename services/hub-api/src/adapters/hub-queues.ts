import { randomUUID } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import type Redis from 'ioredis';
import { z } from 'zod';
import { redisKeys, type StubMapping } from '@mockyard/contracts';
import type { Logger } from '@mockyard/service-kit';
import { summarizeEngine, type EngineRef } from '../domain/engine-ref';
import { NotFoundError } from '../domain/hub-errors';
import { jobDefinitions, ProbeEnginesJobSchema, PushStubsJobSchema, pushStubsJobId, type FanoutMode, type PushStubsJob } from '../jobs/job-definitions';

export interface HubQueuesOptions {
  redis: Redis;
  redisPrefix: string;
  logger: Logger;
  probeIntervalMs: number;
  fanoutAttempts: number;
  fanoutBackoffMs: number;
  processors: {
    probeEngines(): Promise<unknown>;
    pushStubs(job: PushStubsJob): Promise<unknown>;
  };
}

const FanoutRecordSchema = z.object({
  id: z.string(),
  mode: z.enum(['import', 'replace']),
  createdAt: z.string(),
  stubCount: z.number().int(),
  engines: z.array(z.object({ id: z.string(), name: z.string(), url: z.string() })),
});
type FanoutRecord = z.infer<typeof FanoutRecordSchema>;

export type EngineJobState = 'waiting' | 'active' | 'retrying' | 'completed' | 'failed';

export interface FanoutStatus extends FanoutRecord {
  state: 'running' | 'completed' | 'partial' | 'failed';
  results: { serverId: string; name: string; engine: { id: string; name: string; url: string }; state: EngineJobState; attempts: number; result: unknown; error: string | null; finishedAt: string | null }[];
}

/**
 * The hub's BullMQ queues and workers: the repeatable engine health probe and the fan-out of stubs
 * to many engines (one job per engine, retried with backoff, results kept for polling).
 */
export class HubQueues {
  private readonly bullPrefix: string;
  private readonly health: Queue;
  private readonly sync: Queue;
  private readonly workers: Worker[] = [];

  constructor(private readonly options: HubQueuesOptions) {
    this.bullPrefix = redisKeys(options.redisPrefix).bullPrefix;
    const connection = options.redis;
    this.health = new Queue(jobDefinitions.probeEngines.queue, { connection, prefix: this.bullPrefix });
    this.sync = new Queue(jobDefinitions.pushStubs.queue, { connection, prefix: this.bullPrefix });
  }

  /** Starts the workers and (re)installs the repeatable probe. */
  async start(): Promise<void> {
    const { logger, processors } = this.options;
    const connection = this.options.redis;
    const healthWorker = new Worker(
      jobDefinitions.probeEngines.queue,
      async (job: Job) => {
        ProbeEnginesJobSchema.parse(job.data);
        return processors.probeEngines();
      },
      { connection, prefix: this.bullPrefix, concurrency: 1 },
    );
    const syncWorker = new Worker(
      jobDefinitions.pushStubs.queue,
      async (job: Job) => processors.pushStubs(PushStubsJobSchema.parse(job.data)),
      { connection, prefix: this.bullPrefix, concurrency: 4 },
    );
    for (const w of [healthWorker, syncWorker]) {
      w.on('error', (err) => logger.warn({ err, queue: w.name }, 'job worker error'));
      w.on('failed', (job, err) => logger.warn({ queue: w.name, jobId: job?.id, attemptsMade: job?.attemptsMade, error: err.message }, 'job attempt failed'));
      this.workers.push(w);
    }
    // Started means connected: stopping while a worker's blocking connection still initialises makes it emit
    // 'error' after the worker dropped its listeners (an unhandled error event).
    await Promise.all([healthWorker.waitUntilReady(), syncWorker.waitUntilReady()]);
    const def = jobDefinitions.probeEngines;
    await this.health.upsertJobScheduler(def.schedulerId, { every: this.options.probeIntervalMs }, { name: def.name, data: {}, opts: { attempts: def.attempts, removeOnComplete: 20, removeOnFail: 20 } });
  }

  /** Enqueues one push job per engine; returns the fan-out's id and initial status. */
  async startFanout(input: { engines: EngineRef[]; mappings: StubMapping[]; mode: FanoutMode }): Promise<FanoutStatus> {
    const id = randomUUID();
    // ids make the import idempotent: a retried job overwrites what an earlier attempt created
    const mappings = input.mappings.map((m) => (m.id ?? m.uuid ? m : { ...m, id: randomUUID() }));
    const record: FanoutRecord = { id, mode: input.mode, createdAt: new Date().toISOString(), stubCount: mappings.length, engines: input.engines.map(summarizeEngine) };
    const def = jobDefinitions.pushStubs;
    await this.options.redis.set(this.fanoutKey(id), JSON.stringify(record), 'EX', def.keepSeconds);
    await this.sync.addBulk(
      input.engines.map((engine) => ({
        name: def.name,
        data: { fanoutId: id, engineId: engine.id, mode: input.mode, mappings } satisfies PushStubsJob,
        opts: {
          jobId: pushStubsJobId(id, engine.id),
          attempts: this.options.fanoutAttempts,
          backoff: { type: def.backoff.type, delay: this.options.fanoutBackoffMs },
          removeOnComplete: { age: def.keepSeconds },
          removeOnFail: { age: def.keepSeconds },
        },
      })),
    );
    return this.fanoutStatus(id);
  }

  async fanoutStatus(id: string): Promise<FanoutStatus> {
    const raw = await this.options.redis.get(this.fanoutKey(id));
    if (!raw) throw new NotFoundError(`no fan-out with id ${id} (results are kept for ${jobDefinitions.pushStubs.keepSeconds / 3600} h)`);
    const record = FanoutRecordSchema.parse(JSON.parse(raw));
    const results = await Promise.all(
      record.engines.map(async (engine) => {
        const jobId = pushStubsJobId(id, engine.id);
        // The state first: a job seen completed or failed is final, so its data read after are final too. The
        // other way round, the last attempt could fail between the two reads: "failed" with one attempt too few.
        const bullState = await this.sync.getJobState(jobId);
        const job = await this.sync.getJob(jobId);
        const state: EngineJobState =
          bullState === 'completed' ? 'completed' : bullState === 'failed' ? 'failed' : bullState === 'active' ? 'active' : job && job.attemptsMade > 0 ? 'retrying' : 'waiting';
        return {
          serverId: engine.id,
          name: engine.name,
          engine,
          state,
          attempts: job?.attemptsMade ?? 0,
          result: state === 'completed' ? (job?.returnvalue ?? null) : null,
          error: job?.failedReason || null,
          finishedAt: job?.finishedOn ? new Date(job.finishedOn).toISOString() : null,
        };
      }),
    );
    const done = results.filter((r) => r.state === 'completed').length;
    const failed = results.filter((r) => r.state === 'failed').length;
    const state = done + failed < results.length ? 'running' : failed === 0 ? 'completed' : done === 0 ? 'failed' : 'partial';
    return { ...record, state, results };
  }

  /** Runs one probe round now (the dashboard's "refresh"); the scheduler keeps its own rhythm. */
  async requestProbe(): Promise<void> {
    await this.health.add(jobDefinitions.probeEngines.name, {}, { removeOnComplete: 20, removeOnFail: 20 });
  }

  /** Whether the hub's Redis connection is up now (commands sent otherwise wait until it is). */
  get isConnected(): boolean {
    return this.options.redis.status === 'ready';
  }

  async stop(): Promise<void> {
    await Promise.allSettled(this.workers.map((w) => w.close()));
    await Promise.allSettled([this.health.close(), this.sync.close()]);
  }

  private fanoutKey(id: string) {
    return `${this.options.redisPrefix}:hub:fanout:${id}`;
  }
}
