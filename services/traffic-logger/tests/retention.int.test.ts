import Redis from 'ioredis';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@mockyard/testkit';
import { createLogger } from '@mockyard/service-kit';
import { ExchangeRepo } from '../src/adapters/exchange.repo';
import { RetentionQueue } from '../src/adapters/retention.queue';
import { runRetention } from '../src/jobs/retention.job';
import { countRows, makeEvent, publish, startLogger, waitFor, type RunningLogger } from './logger-fixture';

let database: TestDatabase;
let testRedis: TestRedis;
let redis: Redis;
let logger: RunningLogger | undefined;

beforeEach(async () => {
  database = await createTestDatabase();
  testRedis = createTestRedis();
  redis = new Redis(testRedis.url);
});

afterEach(async () => {
  await logger?.close(500);
  logger = undefined;
  redis.disconnect();
  await testRedis.cleanup();
  await database.drop();
});

const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

it('deletes exchanges older than the max age on the repeatable BullMQ job', async () => {
  logger = await startLogger(database, testRedis, { TRAFFIC_RETENTION_MAX_AGE: '24h', TRAFFIC_RETENTION_INTERVAL_MS: '200' });
  const old = [makeEvent({ startedAt: hoursAgo(30) }), makeEvent({ startedAt: hoursAgo(25) })];
  const recent = makeEvent({ startedAt: hoursAgo(1) });
  await publish(redis, testRedis.prefix, [...old, recent]);
  await waitFor(async () => logger!.consumerStats().acked === 3, 'three events consumed');
  await waitFor(async () => (await countRows(logger!.db)) === 1, 'the old exchanges deleted by the job');
  const [{ id }] = await logger.db.prisma.$queryRawUnsafe<{ id: string }[]>('SELECT id::text AS id FROM exchanges');
  expect(id).toBe(recent.id);
  const schedulers = await redis.keys(`${testRedis.prefix}:bull:traffic-retention:*`);
  expect(schedulers.length).toBeGreaterThan(0);
});

it('keeps only the newest max-rows exchanges by storage order', async () => {
  const db = await database.db();
  const repo = new ExchangeRepo(db);
  const { toNewExchange } = await import('../src/domain/to-new-exchange');
  const events = Array.from({ length: 7 }, () => makeEvent());
  for (const e of events) await repo.insertMany([toNewExchange(e)]);
  expect(await runRetention(repo, { maxAgeMs: 0, maxRows: 3 })).toEqual({ deletedByAge: 0, deletedByRows: 4 });
  const left = await db.prisma.$queryRawUnsafe<{ id: string }[]>('SELECT id::text AS id FROM exchanges ORDER BY seq');
  expect(left.map((r) => r.id)).toEqual(events.slice(4).map((e) => e.id));
  expect(await runRetention(repo, { maxAgeMs: 0, maxRows: 3 })).toEqual({ deletedByAge: 0, deletedByRows: 0 });
});

it('stops between chunks when asked, and the next run deletes the rest', async () => {
  const db = await database.db();
  const repo = new ExchangeRepo(db);
  const { toNewExchange } = await import('../src/domain/to-new-exchange');
  await repo.insertMany(Array.from({ length: 7 }, () => toNewExchange(makeEvent({ startedAt: hoursAgo(30) }))));
  // a signal that turns aborted after the first chunk (checked before each one)
  let checks = 0;
  const stopsAfterOneChunk = { get aborted() { return ++checks > 1; } } as AbortSignal;
  const inChunksOfTwo: Parameters<typeof runRetention>[0] = {
    deleteStartedBefore: (cutoff, _chunk, signal) => repo.deleteStartedBefore(cutoff, 2, signal),
    deleteBeyondNewest: (max, _chunk, signal) => repo.deleteBeyondNewest(max, 2, signal),
  };
  const policy = { maxAgeMs: 24 * 3_600_000, maxRows: 1 };
  expect(await runRetention(inChunksOfTwo, policy, new Date(), stopsAfterOneChunk)).toEqual({ deletedByAge: 2, deletedByRows: 0, interrupted: true });
  expect(await countRows(db)).toBe(5);
  expect(await runRetention(inChunksOfTwo, policy)).toEqual({ deletedByAge: 5, deletedByRows: 0 });
});

it('lets a stopping logger end a retention run that is still deleting, instead of waiting for the whole backlog', async () => {
  let sawAbort = false;
  let running: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (running = resolve));
  // a backlog that would take minutes: one "chunk" every 20 ms until told to stop
  const endless: Parameters<typeof runRetention>[0] = {
    async deleteStartedBefore(_cutoff, _chunk, signal) {
      running();
      let chunks = 0;
      while (!signal?.aborted && chunks < 10_000) {
        await new Promise((r) => setTimeout(r, 20));
        chunks++;
      }
      sawAbort = Boolean(signal?.aborted);
      return chunks;
    },
    deleteBeyondNewest: async () => 0,
  };
  const connection = new Redis(testRedis.url, { maxRetriesPerRequest: null });
  const queue = new RetentionQueue({ connection, bullPrefix: `${testRedis.prefix}:bull`, intervalMs: 100, policy: { maxAgeMs: 1000, maxRows: 0 }, repo: endless, logger: createLogger({ service: 'retention-test', level: 'silent' }) });
  try {
    await queue.start();
    await started;
    await queue.stop();
    expect(sawAbort).toBe(true);
  } finally {
    connection.disconnect();
  }
});
