import { call, createTestBackends, startHub, type RunningHub } from './support/start-hub';
import { startMockyardEngine, type MockyardEngine } from './support/mockyard-engine';

jest.setTimeout(40000);

const ENGINE_KEY = 'engine-admin-key-for-tests';
const stub = { request: { method: 'GET', urlPath: '/keyed' }, response: { status: 200, body: 'ok' } };

/** An engine started with engine.admin-api-key: the hub reaches it only with hub.engine.api-key set to the same key. */
describe('the hub calling an engine whose admin API requires a key', () => {
  let backends: Awaited<ReturnType<typeof createTestBackends>>;
  let engine: MockyardEngine;
  let keyed: RunningHub;
  let keyless: RunningHub;
  let wrongKey: RunningHub;

  beforeAll(async () => {
    [backends, engine] = await Promise.all([createTestBackends(), startMockyardEngine({ adminApiKey: ENGINE_KEY })]);
    const env = { LOCAL_ENGINE_URL: engine.url };
    [keyed, keyless, wrongKey] = await Promise.all([
      startHub({ ...backends, env: { ...env, HUB_ENGINE_API_KEY: ENGINE_KEY }, startJobs: false }),
      startHub({ ...backends, env, startJobs: false }),
      startHub({ ...backends, env: { ...env, HUB_ENGINE_API_KEY: 'not-the-engine-key' }, startJobs: false }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([keyed?.stop(), keyless?.stop(), wrongKey?.stop()]);
    await engine?.remove();
    await backends?.cleanup();
  });

  it('refuses callers without the key itself (the engine is not an open admin port)', async () => {
    expect((await call(engine.url, 'GET', '/__admin/mappings')).status).toBe(401);
    expect((await call(engine.url, 'POST', '/__admin/mappings', { body: stub })).status).toBe(401);
  });

  it('works through a hub that holds the key: writes, reads and the served stub', async () => {
    const created = await call(keyed.url, 'POST', '/hub/admin/mappings', { body: stub });
    expect(created.status).toBe(201);
    expect((await call(keyed.url, 'GET', '/hub/admin/mappings')).body.meta.total).toBe(1);
    expect(await (await fetch(`${engine.url}/keyed`)).text()).toBe('ok');
    expect((await call(keyed.url, 'DELETE', `/hub/admin/mappings/${created.body.id}`)).status).toBe(204);
  });

  it('sends the key on health probes too: the engine is UP with its stub count', async () => {
    const health = await call(keyed.url, 'GET', '/actuator/health');
    expect(health.body.components.engine).toMatchObject({ status: 'UP', details: { id: 'local', stubCount: 0 } });
    const servers = await call(keyed.url, 'POST', '/hub/admin/registry/health-check');
    expect(servers.body.find((s: { id: string }) => s.id === 'local')).toMatchObject({ health: 'UP' });
  });

  it.each([
    ['no key', () => keyless, 'the hub sends none'],
    ['a wrong key', () => wrongKey, "refused the hub's engine API key"],
  ])('answers 502 problem naming hub.engine.api-key when the hub has %s (not a 401 blaming the caller)', async (_what, hub, reason) => {
    for (const [method, path, body] of [['GET', '/hub/admin/mappings', undefined], ['POST', '/hub/admin/mappings', stub]] as const) {
      const res = await call(hub().url, method, path, { body });
      expect([method, res.status]).toEqual([method, 502]);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body.detail).toContain(reason);
      expect(res.body.detail).toContain('hub.engine.api-key');
      expect(res.body.detail).not.toContain(ENGINE_KEY);
    }
  });

  it('reports the engine DOWN in health with the reason when the hub has no key', async () => {
    const health = await call(keyless.url, 'GET', '/actuator/health');
    expect(health.status).toBe(503);
    expect(health.body.components.engine).toMatchObject({ status: 'DOWN' });
    expect(health.body.components.engine.details.error).toContain('hub.engine.api-key');
  });
});
