// Fault: Redis (the capture stream) stops for 30 s under steady load through the gateway, then comes back.
// Whole system as processes: proxy-gateway → Redis stream → traffic-logger → PostgreSQL. Every exchange
// sent must be stored exactly once (ids compared), and forwarding must never pause.
import { randomBytes } from 'node:crypto';
import { createTestDatabase, startOwnRedis, type OwnRedis, type TestDatabase } from '@mockyard/testkit';
import { startCapturePipeline, type CapturePipeline } from './support/capture-pipeline';
import { longestGapMs, percentile, reportFigure, startLoad, waitUntil } from './support/load';
import { compareSentAndStored, countStoredByCorrelation } from './support/stored-exchanges';
import { startUpstream, type Upstream } from './support/upstream';

const OUTAGE_S = Number(process.env.FAULT_OUTAGE_S ?? 30);
const RATE_PER_S = 25;
jest.setTimeout((OUTAGE_S + 150) * 1000);

let redis: OwnRedis;
let db: TestDatabase;
let upstream: Upstream;
let pipeline: CapturePipeline;

beforeAll(async () => {
  [redis, db, upstream] = await Promise.all([startOwnRedis(), createTestDatabase(), startUpstream()]);
  pipeline = await startCapturePipeline({ redisUrl: redis.url, redisPrefix: 'faults-redis', databaseUrl: db.url });
});

afterAll(async () => {
  await pipeline?.stop();
  await Promise.allSettled([redis?.remove(), upstream?.close()]);
  await db?.drop();
});

it(`stores every exchange exactly once and keeps forwarding while Redis is down for ${OUTAGE_S} s`, async () => {
  const run = randomBytes(4).toString('hex');
  const idOf = (i: number) => `redis-${run}-${i}`;
  const load = startLoad({
    ratePerS: RATE_PER_S,
    request: (i) => ({ url: `${pipeline.gateway.url}/proxy?url=${encodeURIComponent(`${upstream.url}/echo/${i}`)}`, headers: { 'X-Request-Id': idOf(i) } }),
  });
  try {
    await new Promise((r) => setTimeout(r, 8000));
    const outageStart = Date.now();
    await redis.stop();
    // Meanwhile the gateway says it is degraded and the logger that it cannot reach Redis.
    await waitUntil(async () => (await (await fetch(`${pipeline.gateway.url}/health/ready`)).json()).status === 'DEGRADED', 15_000, 'gateway readiness DEGRADED');
    await waitUntil(async () => (await fetch(`${pipeline.logger.url}/health/ready`)).status === 503, 15_000, 'logger readiness 503');
    await new Promise((r) => setTimeout(r, Math.max(0, outageStart + OUTAGE_S * 1000 - Date.now())));
    await redis.start();
    const outageEnd = Date.now();
    await new Promise((r) => setTimeout(r, 8000));
    load.stop();
    const samples = await load.done;

    const failed = samples.filter((s) => s.status !== 200);
    const during = samples.filter((s) => s.startedAt >= outageStart && s.startedAt <= outageEnd);
    const gapMs = longestGapMs(samples, outageStart, outageEnd);
    expect(failed).toEqual([]);

    const sent = samples.map((s) => idOf(s.i));
    await waitUntil(async () => (await countStoredByCorrelation(db.url, `redis-${run}-`)).size >= sent.length, 90_000, 'every exchange stored');
    await new Promise((r) => setTimeout(r, 2000)); // a late duplicate would show up now
    const result = compareSentAndStored(sent, await countStoredByCorrelation(db.url, `redis-${run}-`));
    expect({ missing: result.missing, doubled: result.doubled, unexpected: result.unexpected }).toEqual({ missing: [], doubled: [], unexpected: [] });
    expect(result.stored).toBe(sent.length);

    const metrics = await (await fetch(`${pipeline.gateway.url}/metrics`)).text();
    const counter = (outcome: string) => Number(new RegExp(`mockyard_capture_events_total\\{outcome="${outcome}"\\} (\\d+)`).exec(metrics)?.[1] ?? NaN);
    expect(counter('dropped')).toBe(0);
    expect(counter('spooled')).toBeGreaterThan(0);
    reportFigure('redis-outage', {
      outageS: OUTAGE_S,
      ratePerS: RATE_PER_S,
      sent: sent.length,
      sentDuringOutage: during.length,
      stored: result.stored,
      lost: result.missing.length,
      doubled: result.doubled.length,
      spooled: counter('spooled'),
      replayed: counter('replayed'),
      p50Ms: percentile(samples.map((s) => s.latencyMs), 50),
      p99Ms: percentile(samples.map((s) => s.latencyMs), 99),
      p99DuringOutageMs: percentile(during.map((s) => s.latencyMs), 99),
      longestGapBetweenResponsesDuringOutageMs: gapMs,
    });
    // "never paused": responses kept coming throughout the outage (a bound, not a speed figure)
    expect(gapMs).toBeLessThan(5000);
  } finally {
    load.stop();
    await load.done;
  }
});
