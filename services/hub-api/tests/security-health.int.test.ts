import { ConfigError } from '@mockyard/config';
import { loadHubConfig } from '../src/config';
import { startOwnRedis } from '@mockyard/testkit';
import { call, createTestBackends, startHub, type RunningHub } from './support/start-hub';
import { startWireMock, wireMockUnavailableReason, type WireMockServer } from './support/wiremock';

jest.setTimeout(40000);
const skipReason = wireMockUnavailableReason();
const describeWithEngines = skipReason ? describe.skip : describe;
if (skipReason) process.stderr.write(`\n[hub-api] SKIPPED API key and health tests with genuine WireMock: ${skipReason}\n`);

const KEY = 's3cret-key-for-tests';

describe('API key configuration', () => {
  it.each(['', '   '])('refuses a blank key (%j) at start instead of running open', (blank) => {
    expect(() => loadHubConfig({ env: { HUB_API_KEY: blank }, propertiesPath: '/dev/null' })).toThrow(ConfigError);
  });
  it('runs without a key when none is configured', () => {
    expect(loadHubConfig({ env: {}, propertiesPath: '/dev/null' }).apiKey).toBeUndefined();
  });
});

describeWithEngines(`API key and actuator health (genuine WireMock${skipReason ? `; SKIPPED: ${skipReason}` : ''})`, () => {
  let backends: Awaited<ReturnType<typeof createTestBackends>>;
  let engine: WireMockServer;
  let secured: RunningHub;
  let open: RunningHub;

  beforeAll(async () => {
    [backends, engine] = await Promise.all([createTestBackends(), startWireMock()]);
    [secured, open] = await Promise.all([
      startHub({ ...backends, env: { LOCAL_ENGINE_URL: engine.url, HUB_API_KEY: KEY }, startJobs: false }),
      startHub({ ...backends, env: { LOCAL_ENGINE_URL: engine.url }, startJobs: false }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([secured?.stop(), open?.stop()]);
    await engine?.remove();
    await backends?.cleanup();
  });

  describe('with a key configured', () => {
    it.each([
      ['GET', '/hub/admin/registry/servers'],
      ['POST', '/hub/admin/registry/active'],
      ['GET', '/hub/admin/mappings'],
      ['POST', '/hub/admin/proxy/enable'],
      ['POST', '/hub/admin/recordings/start'],
      ['POST', '/hub/admin/fanout'],
      ['GET', '/hub/admin/no-such-route'],
      ['POST', '/mcp'],
    ])('answers 401 problem to %s %s without the key', async (method, path) => {
      const res = await call(secured.url, method, path, { body: method === 'POST' ? {} : undefined });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.headers.get('www-authenticate')).toContain('X-Hub-Api-Key');
      expect(res.body.detail).toContain('X-Hub-Api-Key');
    });

    it.each([
      ['a wrong key', { 'X-Hub-Api-Key': 'wrong' }],
      ['a key differing in the last character', { 'X-Hub-Api-Key': KEY.slice(0, -1) + 'X' }],
      ['a longer key', { 'X-Hub-Api-Key': `${KEY}${KEY}` }],
      ['a wrong bearer token', { Authorization: 'Bearer wrong' }],
      ['the key as basic auth', { Authorization: `Basic ${KEY}` }],
      ['only the target header', { 'X-Hub-Target-Server': 'local' }],
    ])('answers 401 with %s', async (_what, headers) => {
      const res = await call(secured.url, 'GET', '/hub/admin/mappings', { headers });
      expect(res.status).toBe(401);
    });

    it('accepts the key in X-Hub-Api-Key or as a bearer token', async () => {
      expect((await call(secured.url, 'GET', '/hub/admin/mappings', { headers: { 'X-Hub-Api-Key': KEY } })).status).toBe(200);
      expect((await call(secured.url, 'GET', '/hub/admin/registry/servers', { headers: { Authorization: `Bearer ${KEY}` } })).status).toBe(200);
      expect((await call(secured.url, 'GET', '/hub/admin/mappings', { headers: { 'X-Hub-Api-Key': KEY, 'X-Hub-Target-Server': 'local' } })).status).toBe(200);
    });

    it('checks the key before the target header, so an unauthenticated caller learns nothing about server ids', async () => {
      const res = await call(secured.url, 'GET', '/hub/admin/mappings', { headers: { 'X-Hub-Target-Server': '11111111-1111-4111-8111-111111111111' } });
      expect(res.status).toBe(401);
    });

    it('keeps health open', async () => {
      for (const path of ['/actuator/health', '/actuator/health/liveness', '/actuator/health/readiness', '/health/ready']) {
        expect([path, (await call(secured.url, 'GET', path)).status]).toEqual([path, 200]);
      }
    });
  });

  it('needs no key when none is configured', async () => {
    expect((await call(open.url, 'GET', '/hub/admin/registry/servers')).status).toBe(200);
    expect((await call(open.url, 'GET', '/hub/admin/mappings')).status).toBe(200);
  });

  it('reports db, redis and the active engine (id, URL, stub count, response time) when all are up', async () => {
    await call(engine.url, 'POST', '/__admin/mappings', { body: { request: { method: 'GET', urlPath: '/h' }, response: { status: 200 } } });
    const res = await call(open.url, 'GET', '/actuator/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/vnd.spring-boot.actuator.v3+json');
    expect(res.body.status).toBe('UP');
    expect(res.body.components.db.status).toBe('UP');
    expect(res.body.components.redis.status).toBe('UP');
    expect(res.body.components.engine).toMatchObject({ status: 'UP', details: { id: 'local', url: engine.url, stubCount: 1, responseTimeMs: expect.any(Number) } });
    const component = await call(open.url, 'GET', '/actuator/health/engine');
    expect(component.body).toMatchObject({ status: 'UP', details: { id: 'local' } });
    expect((await call(open.url, 'GET', '/actuator/health/nope')).status).toBe(404);
  });

  it('is DOWN (503) overall when the active engine is down, while liveness and readiness stay UP', async () => {
    const dead = (await call(open.url, 'POST', '/hub/admin/registry/servers', { body: { name: 'dead', url: 'http://127.0.0.1:9' } })).body;
    await call(open.url, 'POST', '/hub/admin/registry/active', { body: { id: dead.id } });
    try {
      const res = await call(open.url, 'GET', '/actuator/health');
      expect(res.status).toBe(503);
      expect(res.body.status).toBe('DOWN');
      expect(res.body.components.engine).toMatchObject({ status: 'DOWN', details: { id: dead.id, url: 'http://127.0.0.1:9', stubCount: null } });
      expect(res.body.components.engine.details.error).toContain('ECONNREFUSED');
      expect(res.body.components.db.status).toBe('UP');
      expect((await call(open.url, 'GET', '/actuator/health/liveness')).body).toEqual({ status: 'UP' });
      const ready = await call(open.url, 'GET', '/actuator/health/readiness');
      expect(ready.status).toBe(200);
      expect(Object.keys(ready.body.components).sort()).toEqual(['db', 'redis']);
      expect((await call(open.url, 'GET', '/health/ready')).status).toBe(200);
      // the probe is recorded in the registry too
      expect((await call(open.url, 'GET', `/hub/admin/registry/servers/${dead.id}`)).body.health).not.toBe('UNKNOWN');
    } finally {
      await call(open.url, 'POST', '/hub/admin/registry/active', { body: { id: 'local' } });
    }
  });

  it('is not ready (503) while its Redis is down, and ready again when it returns; liveness stays UP', async () => {
    const redis = await startOwnRedis({ appendfsync: 'off', stopSignal: 'SIGKILL' });
    const hub = await startHub({ ...backends, redis: { ...backends.redis, url: redis.url }, env: { LOCAL_ENGINE_URL: engine.url, HUB_HEALTH_TIMEOUT_MS: '500' }, startJobs: false });
    try {
      expect((await call(hub.url, 'GET', '/actuator/health/readiness')).status).toBe(200);
      await redis.stop();
      const ready = await call(hub.url, 'GET', '/actuator/health/readiness');
      expect(ready.status).toBe(503);
      expect(ready.body.components).toMatchObject({ db: { status: 'UP' }, redis: { status: 'DOWN' } });
      expect((await call(hub.url, 'GET', '/actuator/health')).body.status).toBe('DOWN');
      expect((await call(hub.url, 'GET', '/actuator/health/liveness')).status).toBe(200);
      await redis.start();
      const back = await (async () => {
        for (let i = 0; i < 100; i++) {
          const r = await call(hub.url, 'GET', '/actuator/health/readiness');
          if (r.status === 200) return r;
          await new Promise((x) => setTimeout(x, 100));
        }
        return call(hub.url, 'GET', '/actuator/health/readiness');
      })();
      expect(back.status).toBe(200);
    } finally {
      await redis.start();
      await hub.stop();
      await redis.remove();
    }
  });
});
