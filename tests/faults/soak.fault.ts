// Soak: a moderate steady load through the gateway to a stub on the engine, with capture to the logger,
// for SOAK_DURATION_S (default 600 s; CI runs the full 600 s). Zero errors, every exchange stored, RSS of
// each process flat (start after warm-up vs end), and no growing backlog in the capture stream.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { redisKeys } from '@mockyard/contracts';
import { createTestDatabase, createTestRedis, freePort, type TestDatabase, type TestRedis } from '@mockyard/testkit';
import { startCapturePipeline, type CapturePipeline } from './support/capture-pipeline';
import { percentile, reportFigure, startLoad, waitUntil } from './support/load';
import { startService, type ServiceProcess } from './support/service-process';
import { compareSentAndStored, countStoredByCorrelation } from './support/stored-exchanges';

const DURATION_S = Number(process.env.SOAK_DURATION_S ?? 600);
const RATE_PER_S = Number(process.env.SOAK_RATE_PER_S ?? 50);
const SAMPLE_EVERY_MS = 10_000;
const WARMUP_MS = Math.min(60_000, DURATION_S * 100);
jest.setTimeout(DURATION_S * 1000 + 180_000);

let db: TestDatabase;
let testRedis: TestRedis;
let redis: Redis;
let engineDir: string;
let engine: ServiceProcess;
let pipeline: CapturePipeline;

beforeAll(async () => {
  testRedis = createTestRedis();
  redis = new Redis(testRedis.url, { maxRetriesPerRequest: 2 });
  db = await createTestDatabase();
  engineDir = mkdtempSync(join(tmpdir(), 'faults-soak-engine-'));
  engine = await startService('engine', await freePort(), { ENGINE_ROOT_DIR: engineDir });
  pipeline = await startCapturePipeline({ redisUrl: testRedis.url, redisPrefix: testRedis.prefix, databaseUrl: db.url });
});

afterAll(async () => {
  await pipeline?.stop();
  await engine?.stop();
  redis?.disconnect();
  await Promise.allSettled([db?.drop(), testRedis?.cleanup()]);
  if (engineDir) rmSync(engineDir, { recursive: true, force: true });
});

/** Entries of the capture stream not yet acked by the logger's group (read but pending, plus unread). */
async function backlog(): Promise<number> {
  const keys = redisKeys(testRedis.prefix);
  const groups = (await redis.xinfo('GROUPS', keys.trafficStream)) as unknown[][];
  const group = groups.map((g) => Object.fromEntries(Array.from({ length: g.length / 2 }, (_, i) => [g[2 * i], g[2 * i + 1]]))).find((g) => g.name === keys.trafficConsumerGroup);
  return group ? Number(group.pending) + Number(group.lag ?? 0) : 0;
}

it(`holds ${RATE_PER_S} req/s for ${DURATION_S} s through gateway and engine with zero errors, flat memory and no backlog`, async () => {
  const stub = await fetch(`${engine.url}/__admin/mappings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ request: { method: 'POST', urlPathPattern: '/soak/.*' }, response: { status: 200, jsonBody: { ok: true }, headers: { 'content-type': 'application/json' } } }),
  });
  expect(stub.status).toBe(201);
  const idOf = (i: number) => `soak-${testRedis.prefix}-${i}`;
  const started = Date.now();
  const load = startLoad({
    ratePerS: RATE_PER_S,
    durationMs: DURATION_S * 1000,
    request: (i) => ({
      url: `${pipeline.gateway.url}/proxy?url=${encodeURIComponent(`${engine.url}/soak/${i}`)}`,
      method: 'POST',
      headers: { 'X-Request-Id': idOf(i), 'content-type': 'application/json' },
      body: JSON.stringify({ i, payload: 'x'.repeat(512) }),
    }),
  });
  const series: { atS: number; rssMiB: Record<string, number>; backlog: number }[] = [];
  const procs = { gateway: pipeline.gateway, engine, logger: pipeline.logger };
  const sample = async () => {
    const rssMiB = Object.fromEntries(Object.entries(procs).map(([name, p]) => [name, Math.round(p.rssBytes() / 1048576)]));
    series.push({ atS: Math.round((Date.now() - started) / 1000), rssMiB, backlog: await backlog() });
  };
  const sampler = setInterval(() => void sample(), SAMPLE_EVERY_MS);
  let rssAtWarmup: Record<string, number> = {};
  const warmup = setTimeout(() => {
    rssAtWarmup = Object.fromEntries(Object.entries(procs).map(([name, p]) => [name, p.rssBytes()]));
  }, WARMUP_MS);
  let samples;
  try {
    samples = await load.done;
  } finally {
    clearInterval(sampler);
    clearTimeout(warmup);
    load.stop();
  }
  await sample();
  const rssAtEnd = Object.fromEntries(Object.entries(procs).map(([name, p]) => [name, p.rssBytes()]));
  const elapsedS = (Date.now() - started) / 1000;

  const errors = samples.filter((s) => s.status !== 200);
  const sent = samples.map((s) => idOf(s.i));
  // Drain: wait (bounded) for the logger to store the tail, then report before asserting.
  await waitUntil(async () => (await countStoredByCorrelation(db.url, `soak-${testRedis.prefix}-`)).size >= sent.length, 60_000, 'every exchange stored').catch(() => undefined);
  const stored = compareSentAndStored(sent, await countStoredByCorrelation(db.url, `soak-${testRedis.prefix}-`));
  const backlogs = series.map((s) => s.backlog);
  const quarter = Math.max(1, Math.floor(backlogs.length / 4));
  reportFigure('soak', {
    durationS: DURATION_S,
    targetRatePerS: RATE_PER_S,
    heldRatePerS: Math.round((samples.length / elapsedS) * 10) / 10,
    requests: samples.length,
    errors: errors.length,
    stored: stored.stored,
    lost: stored.missing.length,
    doubled: stored.doubled.length,
    missingSample: stored.missing.slice(0, 5),
    backlogAtEnd: await backlog(),
    capture: (await (await fetch(`${pipeline.gateway.url}/metrics`)).text()).split('\n').filter((l) => l.startsWith('mockyard_capture_events_total')),
    p50Ms: percentile(samples.map((s) => s.latencyMs), 50),
    p99Ms: percentile(samples.map((s) => s.latencyMs), 99),
    rssMiBAfterWarmup: Object.fromEntries(Object.entries(rssAtWarmup).map(([k, v]) => [k, Math.round(v / 1048576)])),
    rssMiBAtEnd: Object.fromEntries(Object.entries(rssAtEnd).map(([k, v]) => [k, Math.round(v / 1048576)])),
    backlogMax: Math.max(...backlogs),
    backlogLastQuarterMax: Math.max(...backlogs.slice(-quarter)),
    series: series.map((s) => `${s.atS}s g${s.rssMiB.gateway}/e${s.rssMiB.engine}/l${s.rssMiB.logger}MiB b${s.backlog}`).join(' | '),
  });

  expect(errors.slice(0, 5)).toEqual([]);
  expect({ missing: stored.missing.length, doubled: stored.doubled.length }).toEqual({ missing: 0, doubled: 0 });
  for (const name of Object.keys(procs)) {
    expect(rssAtEnd[name]).toBeLessThan(rssAtWarmup[name] * 1.5 + 50 * 1048576);
  }
  // No growing backlog: the logger keeps up, so what is unacked stays within a few seconds of traffic.
  expect(Math.max(...backlogs.slice(-quarter))).toBeLessThan(RATE_PER_S * 5);
});
