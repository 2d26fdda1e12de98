// Fault: the traffic-logger is killed with SIGKILL in the middle of a batch (its insert transaction open)
// and at random moments under load, then restarted, under its own name and under a new one (which must
// claim the dead consumer's pending entries). Nothing lost, nothing doubled. Real processes.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import Redis from 'ioredis';
import { redisKeys } from '@mockyard/contracts';
import { createTestDatabase, createTestRedis, freePort, type TestDatabase, type TestRedis } from '@mockyard/testkit';
import { startCapturePipeline, type CapturePipeline } from './support/capture-pipeline';
import { reportFigure, startLoad, waitUntil } from './support/load';
import { startService, type ServiceProcess } from './support/service-process';
import { compareSentAndStored, countStoredByCorrelation } from './support/stored-exchanges';
import { startUpstream, type Upstream } from './support/upstream';

const RATE_PER_S = 40;
const INSERT_LOCK_KEY = 727281; // the logger's transaction-scoped insert lock (services/traffic-logger/src/adapters/exchange.repo.ts)
jest.setTimeout(170_000);

let db: TestDatabase;
let testRedis: TestRedis;
let redis: Redis;
let upstream: Upstream;
let pipeline: CapturePipeline;
const extraLoggers: ServiceProcess[] = [];

beforeAll(async () => {
  testRedis = createTestRedis();
  redis = new Redis(testRedis.url, { maxRetriesPerRequest: 2 });
  [db, upstream] = await Promise.all([createTestDatabase(), startUpstream()]);
  pipeline = await startCapturePipeline({
    redisUrl: testRedis.url,
    redisPrefix: testRedis.prefix,
    databaseUrl: db.url,
    loggerEnv: { TRAFFIC_CONSUMER_NAME: 'faults-logger-a', TRAFFIC_CONSUMER_CLAIM_IDLE_MS: '3000', TRAFFIC_CONSUMER_BATCH_MAX_WAIT_MS: '100' },
  });
});

afterAll(async () => {
  await Promise.allSettled(extraLoggers.map((l) => l.stop()));
  await pipeline?.stop();
  await upstream?.close();
  redis?.disconnect();
  await Promise.allSettled([db?.drop(), testRedis?.cleanup()]);
});

async function pendingCount(): Promise<number> {
  const keys = redisKeys(testRedis.prefix);
  return Number(((await redis.xpending(keys.trafficStream, keys.trafficConsumerGroup)) as [number])[0]);
}

it('loses and doubles nothing when the logger is SIGKILLed mid-batch and at random moments, then restarted', async () => {
  const run = randomBytes(4).toString('hex');
  const idOf = (i: number) => `kill-${run}-${i}`;
  const load = startLoad({
    ratePerS: RATE_PER_S,
    request: (i) => ({ url: `${pipeline.gateway.url}/proxy?url=${encodeURIComponent(`${upstream.url}/echo/${i}`)}`, headers: { 'X-Request-Id': idOf(i) } }),
  });
  const blocker = new pg.Client({ connectionString: db.url });
  await blocker.connect();
  const kills: string[] = [];
  try {
    await new Promise((r) => setTimeout(r, 4000));

    // 1. Deterministically mid-batch: hold the insert lock, so the logger's batch waits inside its open
    // transaction with entries read but unacked, then SIGKILL it there.
    await blocker.query('SELECT pg_advisory_lock($1)', [INSERT_LOCK_KEY]);
    await waitUntil(async () => (await pendingCount()) > 0, 10_000, 'a batch read and waiting on the insert lock');
    const pendingAtKill = await pendingCount();
    await pipeline.logger.kill('SIGKILL');
    kills.push(`mid-batch (insert transaction open, ${pendingAtKill} entries pending)`);
    await blocker.query('SELECT pg_advisory_unlock($1)', [INSERT_LOCK_KEY]);
    await new Promise((r) => setTimeout(r, 2000));
    await pipeline.logger.restart(); // same consumer name: re-reads its own pending entries first

    // 2. Random moments under load, restarting under the same name.
    for (let k = 0; k < 3; k++) {
      await new Promise((r) => setTimeout(r, 2000 + Math.floor(Math.random() * 3000)));
      await pipeline.logger.kill('SIGKILL');
      kills.push(`random moment ${k + 1}`);
      await new Promise((r) => setTimeout(r, 1000));
      await pipeline.logger.restart();
    }

    // 3. Killed for good; a new instance with another name must claim the dead one's pending entries.
    await new Promise((r) => setTimeout(r, 2500));
    await blocker.query('SELECT pg_advisory_lock($1)', [INSERT_LOCK_KEY]);
    await waitUntil(async () => (await pendingCount()) > 0, 10_000, 'a batch pending before the last kill');
    await pipeline.logger.kill('SIGKILL');
    kills.push('mid-batch, replaced by a new consumer name');
    await blocker.query('SELECT pg_advisory_unlock($1)', [INSERT_LOCK_KEY]);
    const replacement = await startService('traffic-logger', await freePort(), {
      REDIS_URL: testRedis.url,
      REDIS_PREFIX: testRedis.prefix,
      DATABASE_URL: db.url,
      TRAFFIC_CONSUMER_NAME: 'faults-logger-b',
      TRAFFIC_CONSUMER_CLAIM_IDLE_MS: '3000',
    });
    extraLoggers.push(replacement);
    await new Promise((r) => setTimeout(r, 4000));
    load.stop();
    const samples = await load.done;
    expect(samples.filter((s) => s.status !== 200)).toEqual([]);

    const sent = samples.map((s) => idOf(s.i));
    await waitUntil(async () => (await countStoredByCorrelation(db.url, `kill-${run}-`)).size >= sent.length, 60_000, 'every exchange stored');
    await waitUntil(async () => (await pendingCount()) === 0, 30_000, 'everything acked');
    const result = compareSentAndStored(sent, await countStoredByCorrelation(db.url, `kill-${run}-`));
    expect({ missing: result.missing, doubled: result.doubled, unexpected: result.unexpected }).toEqual({ missing: [], doubled: [], unexpected: [] });
    expect(await redis.xlen(redisKeys(testRedis.prefix).trafficDeadLetter)).toBe(0);
    reportFigure('logger-sigkill', { kills: kills.length, how: kills, ratePerS: RATE_PER_S, sent: sent.length, stored: result.stored, lost: result.missing.length, doubled: result.doubled.length });
  } finally {
    load.stop();
    await load.done;
    await blocker.end();
  }
});
