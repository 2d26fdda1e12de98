import Redis from 'ioredis';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@mockyard/testkit';
import { ExchangeRepo } from '../src/adapters/exchange.repo';
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
