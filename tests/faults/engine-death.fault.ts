// Fault: the hub's engine dies (SIGKILL) and later freezes (SIGSTOP) while the hub is used through the
// gateway. Calls must fail fast once its breaker opens (503 + Retry-After), the health view must show it,
// and when the engine returns the breaker closes and calls succeed again without restarting the hub.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, createTestRedis, freePort, type TestDatabase, type TestRedis } from '@mockyard/testkit';
import { percentile, reportFigure, startLoad, waitUntil, type LoadSample } from './support/load';
import { startService, type ServiceProcess } from './support/service-process';

jest.setTimeout(170_000);
const ENGINE_TIMEOUT_MS = 2000;
const RESET_MS = 3000;

let db: TestDatabase;
let redis: TestRedis;
let engineDir: string;
let engine: ServiceProcess;
let hub: ServiceProcess;
let gateway: ServiceProcess;

beforeAll(async () => {
  db = await createTestDatabase();
  redis = createTestRedis();
  engineDir = mkdtempSync(join(tmpdir(), 'faults-engine-'));
  engine = await startService('engine', await freePort(), { ENGINE_ROOT_DIR: engineDir });
  hub = await startService('hub-api', await freePort(), {
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    LOCAL_ENGINE_URL: engine.url,
    LOGGER_URL: `http://127.0.0.1:${await freePort()}`,
    HUB_ENGINE_TIMEOUT_MS: String(ENGINE_TIMEOUT_MS),
    HUB_ENGINE_BREAKER_RESET_TIMEOUT_MS: String(RESET_MS),
    HUB_ENGINE_BREAKER_VOLUME_THRESHOLD: '3',
    HUB_HEALTH_PROBE_INTERVAL_MS: '1000',
    HUB_HEALTH_TIMEOUT_MS: '1000',
  });
  const dead = `http://127.0.0.1:${await freePort()}`;
  gateway = await startService('proxy-gateway', await freePort(), {
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    SERVICE_PROXY_PORT: String(await freePort()),
    HUB_API_URL: hub.url,
    LOGGER_URL: dead,
    WEB_URL: dead,
    CAPTURE_ENABLED: 'false',
  });
});

afterAll(async () => {
  await Promise.allSettled([gateway?.stop(), hub?.stop(), engine?.stop()]);
  await Promise.allSettled([db?.drop(), redis?.cleanup()]);
  if (engineDir) rmSync(engineDir, { recursive: true, force: true });
});

const hubUrl = (path: string) => `${gateway.url}/hub/admin${path}`;

function statusCounts(samples: LoadSample[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of samples) counts[s.error ? `error:${s.error}` : String(s.status)] = (counts[String(s.error ? `error:${s.error}` : s.status)] ?? 0) + 1;
  return counts;
}

async function expectBreakerOpenProblem() {
  const res = await fetch(hubUrl('/mappings'));
  expect(res.status).toBe(503);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  const body = await res.json();
  expect(body).toMatchObject({ status: 503, engine: { id: 'local', url: engine.url } });
  expect(body.detail).toContain('circuit breaker is open');
}

it('fails fast while the engine is dead, shows it in health, and recovers when it returns without a hub restart', async () => {
  const created = await fetch(hubUrl('/mappings'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ request: { method: 'GET', urlPath: '/faults/alive' }, response: { status: 200, body: 'alive' }, persistent: true }),
  });
  expect(created.status).toBe(201);
  const hubPid = hub.pid();
  const load = startLoad({ ratePerS: 10, timeoutMs: 10_000, request: () => ({ url: hubUrl('/mappings') }) });
  try {
    await new Promise((r) => setTimeout(r, 2000));
    const killedAt = Date.now();
    await engine.kill('SIGKILL');
    await waitUntil(async () => (await fetch(hubUrl('/mappings'))).status === 503, 15_000, 'breaker open');
    await expectBreakerOpenProblem();

    // The health view shows the engine down; the hub itself stays live and its registry answers.
    await waitUntil(async () => (await fetch(`${gateway.url}/actuator/health`)).status === 503, 15_000, 'actuator health DOWN');
    const health = await (await fetch(`${gateway.url}/actuator/health`)).json();
    expect(health).toMatchObject({ status: 'DOWN', components: { engine: { status: 'DOWN', details: { id: 'local' } } } });
    await waitUntil(async () => (await (await fetch(hubUrl('/registry/servers/local'))).json()).health === 'DOWN', 15_000, 'registry shows local DOWN');
    expect((await fetch(`${gateway.url}/actuator/health/liveness`)).status).toBe(200);
    expect((await fetch(hubUrl('/registry/servers'))).status).toBe(200);

    await new Promise((r) => setTimeout(r, 4000));
    const restartedAt = Date.now();
    await engine.restart();
    await waitUntil(async () => (await fetch(hubUrl('/mappings'))).status === 200, 20_000, 'calls succeed again');
    const recoveredAt = Date.now();
    const stubs = await (await fetch(hubUrl('/mappings'))).json();
    expect(stubs.mappings.map((m: { request: { urlPath?: string } }) => m.request.urlPath)).toContain('/faults/alive');
    expect(await (await fetch(`${engine.url}/faults/alive`)).text()).toBe('alive');
    await waitUntil(async () => (await fetch(`${gateway.url}/actuator/health`)).status === 200, 15_000, 'actuator health UP again');
    expect(hub.pid()).toBe(hubPid);
    await new Promise((r) => setTimeout(r, 1000));
    load.stop();
    const samples = await load.done;

    const open = samples.filter((s) => s.status === 503);
    const unexpected = samples.filter((s) => ![200, 502, 503].includes(s.status));
    expect(unexpected).toEqual([]);
    expect(open.length).toBeGreaterThan(0);
    expect(samples.filter((s) => s.startedAt > recoveredAt).every((s) => s.status === 200)).toBe(true);
    reportFigure('engine-death', {
      statuses: statusCounts(samples),
      breakerOpenP50Ms: percentile(open.map((s) => s.latencyMs), 50),
      breakerOpenP99Ms: percentile(open.map((s) => s.latencyMs), 99),
      downForMs: restartedAt - killedAt,
      recoveredAfterRestartMs: recoveredAt - restartedAt,
    });
  } finally {
    load.stop();
    await load.done;
  }
});

it('answers 504 then fails fast with 503 while the engine hangs (SIGSTOP), and recovers on SIGCONT', async () => {
  const load = startLoad({ ratePerS: 10, timeoutMs: 15_000, request: () => ({ url: hubUrl('/mappings') }) });
  try {
    await new Promise((r) => setTimeout(r, 1000));
    engine.signal('SIGSTOP');
    await waitUntil(async () => (await fetch(hubUrl('/mappings'))).status === 503, 30_000, 'breaker open on a hung engine');
    await expectBreakerOpenProblem();
    await new Promise((r) => setTimeout(r, 4000));
    engine.signal('SIGCONT');
    await waitUntil(async () => (await fetch(hubUrl('/mappings'))).status === 200, 20_000, 'calls succeed after SIGCONT');
    const recoveredAt = Date.now();
    await new Promise((r) => setTimeout(r, 1000));
    load.stop();
    const samples = await load.done;
    const open = samples.filter((s) => s.status === 503);
    expect(samples.filter((s) => ![200, 503, 504].includes(s.status))).toEqual([]);
    expect(samples.some((s) => s.status === 504)).toBe(true);
    // Fail fast: an open breaker answers without waiting for the engine's timeout.
    expect(percentile(open.map((s) => s.latencyMs), 50)).toBeLessThan(ENGINE_TIMEOUT_MS);
    expect(samples.filter((s) => s.startedAt > recoveredAt).every((s) => s.status === 200)).toBe(true);
    // Once open, only the breaker's half-open trial calls (one per reset period) still wait for the engine.
    const firstOpen = Math.min(...open.map((s) => s.startedAt + s.latencyMs));
    expect(samples.filter((s) => s.status === 504 && s.startedAt > firstOpen).length).toBeLessThanOrEqual(5);
    reportFigure('engine-hang', {
      statuses: statusCounts(samples),
      timeoutsStartedAfterBreakerOpened: samples.filter((s) => s.status === 504 && s.startedAt > firstOpen).length,
      timeoutP50Ms: percentile(samples.filter((s) => s.status === 504).map((s) => s.latencyMs), 50),
      breakerOpenP50Ms: percentile(open.map((s) => s.latencyMs), 50),
    });
  } finally {
    engine.signal('SIGCONT');
    load.stop();
    await load.done;
  }
});
