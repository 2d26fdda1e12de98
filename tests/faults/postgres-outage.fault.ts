// Fault: PostgreSQL stops for 30 s under steady load; the traffic-logger must retry, ack nothing it did
// not commit (entries stay pending in the consumer group), report the outage in its readiness, and store
// every event exactly once after recovery. Real processes; the database is a private cluster.
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { redisKeys } from '@mockyard/contracts';
import { createTestRedis, type TestRedis } from '@mockyard/testkit';
import { startCapturePipeline, type CapturePipeline } from './support/capture-pipeline';
import { percentile, reportFigure, startLoad, waitUntil } from './support/load';
import { startOwnPostgres, type OwnPostgres } from './support/own-postgres';
import { compareSentAndStored, countStoredByCorrelation } from './support/stored-exchanges';
import { startUpstream, type Upstream } from './support/upstream';

const OUTAGE_S = Number(process.env.FAULT_OUTAGE_S ?? 30);
const RATE_PER_S = 25;
jest.setTimeout((OUTAGE_S + 150) * 1000);

let postgres: OwnPostgres;
let testRedis: TestRedis;
let redis: Redis;
let upstream: Upstream;
let pipeline: CapturePipeline;

beforeAll(async () => {
  testRedis = createTestRedis();
  redis = new Redis(testRedis.url, { maxRetriesPerRequest: 2 });
  [postgres, upstream] = await Promise.all([startOwnPostgres(), startUpstream()]);
  pipeline = await startCapturePipeline({ redisUrl: testRedis.url, redisPrefix: testRedis.prefix, databaseUrl: postgres.url });
});

afterAll(async () => {
  await pipeline?.stop();
  await Promise.allSettled([postgres?.remove(), upstream?.close()]);
  redis?.disconnect();
  await testRedis?.cleanup();
});

let retryTimes: number[] = [];

/**
 * Times (ms) of the logger's "batch not stored; retried" warnings, from its JSON log lines: those of the
 * consumer that retried most (an instance runs several, each with its own backoff).
 */
function retryTimestamps(output: string): number[] {
  const byConsumer = new Map<string, number[]>();
  for (const line of output.split('\n')) {
    if (!line.includes('not stored; it stays pending')) continue;
    const time = Date.parse(/"time":"([^"]+)"/.exec(line)?.[1] ?? '');
    if (Number.isNaN(time)) continue;
    const consumer = /"consumer":"([^"]+)"/.exec(line)?.[1] ?? '';
    byConsumer.set(consumer, [...(byConsumer.get(consumer) ?? []), time]);
  }
  return [...byConsumer.values()].sort((a, b) => b.length - a.length)[0] ?? [];
}

async function pendingCount(): Promise<number> {
  const keys = redisKeys(testRedis.prefix);
  const summary = (await redis.xpending(keys.trafficStream, keys.trafficConsumerGroup)) as [number, ...unknown[]];
  return Number(summary[0]);
}

/** Entries of the stream the group has not acked: read but pending, plus not yet read (lag). */
async function unackedCount(): Promise<number> {
  const keys = redisKeys(testRedis.prefix);
  const groups = (await redis.xinfo('GROUPS', keys.trafficStream)) as unknown[][];
  const group = groups.map((g) => Object.fromEntries(Array.from({ length: g.length / 2 }, (_, i) => [g[2 * i], g[2 * i + 1]]))).find((g) => g.name === keys.trafficConsumerGroup)!;
  return Number(group.pending) + Number(group.lag ?? 0);
}

it(`retries, acks nothing uncommitted and stores every event exactly once across a ${OUTAGE_S} s database outage`, async () => {
  const run = randomBytes(4).toString('hex');
  const idOf = (i: number) => `pg-${run}-${i}`;
  const load = startLoad({
    ratePerS: RATE_PER_S,
    request: (i) => ({ url: `${pipeline.gateway.url}/proxy?url=${encodeURIComponent(`${upstream.url}/echo/${i}`)}`, headers: { 'X-Request-Id': idOf(i) } }),
  });
  try {
    await new Promise((r) => setTimeout(r, 8000));
    const outageStart = Date.now();
    const warningsBefore = retryTimestamps(pipeline.logger.output()).length;
    await postgres.stop();

    await waitUntil(async () => (await fetch(`${pipeline.logger.url}/health/ready`)).status === 503, 15_000, 'logger readiness 503');
    const report = await (await fetch(`${pipeline.logger.url}/health/ready`)).json();
    expect(JSON.stringify(report)).toMatch(/DOWN/);

    // The batch read when the database went away stays pending (unacked); newer entries wait unread.
    await waitUntil(async () => (await pendingCount()) > 0 && (await unackedCount()) > RATE_PER_S, 20_000, 'entries unacked while the database is down');
    const unackedMid = await unackedCount();
    await new Promise((r) => setTimeout(r, Math.max(0, outageStart + OUTAGE_S * 1000 - Date.now())));
    const pendingBeforeRestart = await pendingCount();
    const unackedBeforeRestart = await unackedCount();
    expect(pendingBeforeRestart).toBeGreaterThan(0);
    expect(unackedBeforeRestart).toBeGreaterThan(unackedMid);
    retryTimes = retryTimestamps(pipeline.logger.output()).slice(warningsBefore);
    const retries = retryTimes.length;
    await postgres.start();
    await waitUntil(async () => (await fetch(`${pipeline.logger.url}/health/ready`)).status === 200, 30_000, 'logger ready again');
    await new Promise((r) => setTimeout(r, 5000));
    load.stop();
    const samples = await load.done;
    expect(samples.filter((s) => s.status !== 200)).toEqual([]);

    const sent = samples.map((s) => idOf(s.i));
    await waitUntil(async () => (await countStoredByCorrelation(postgres.url, `pg-${run}-`)).size >= sent.length, 90_000, 'every event stored');
    await waitUntil(async () => (await unackedCount()) === 0, 30_000, 'everything acked');
    const result = compareSentAndStored(sent, await countStoredByCorrelation(postgres.url, `pg-${run}-`));
    expect({ missing: result.missing, doubled: result.doubled, unexpected: result.unexpected }).toEqual({ missing: [], doubled: [], unexpected: [] });
    const keys = redisKeys(testRedis.prefix);
    expect(await redis.xlen(keys.trafficDeadLetter)).toBe(0);
    reportFigure('postgres-outage', {
      outageS: OUTAGE_S,
      ratePerS: RATE_PER_S,
      sent: sent.length,
      stored: result.stored,
      lost: result.missing.length,
      doubled: result.doubled.length,
      pendingAtOutageEnd: pendingBeforeRestart,
      unackedAtOutageEnd: unackedBeforeRestart,
      loggerRetriesDuringOutage: retries,
      forwardingErrors: 0,
      p99Ms: percentile(samples.map((s) => s.latencyMs), 99),
    });
  } finally {
    load.stop();
    await load.done;
  }
});

// The consumer retries a failed batch after 1 s, doubling per failure in a row up to 10 s.
it('waits longer between retries the longer the database stays down (backoff)', () => {
  expect(retryTimes.length).toBeGreaterThanOrEqual(4);
  const gaps = retryTimes.slice(1).map((t, i) => t - retryTimes[i]);
  expect(gaps.at(-1)!).toBeGreaterThan(gaps[0] * 1.5);
});
