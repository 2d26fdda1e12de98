import { call, createTestBackends, startHub, type RunningHub } from './support/start-hub';
import { startWireMock, wireMockUnavailableReason, type WireMockServer } from './support/wiremock';

jest.setTimeout(40000);
const skipReason = wireMockUnavailableReason();
const describeWithEngines = skipReason ? describe.skip : describe;
if (skipReason) process.stderr.write(`\n[hub-api] SKIPPED targeting tests with three genuine WireMocks: ${skipReason}\n`);

const stub = (path: string) => ({ request: { method: 'GET', urlPath: path }, response: { status: 200, jsonBody: { path } } });
const TARGET = 'X-Hub-Target-Server';

describeWithEngines(`targeting vs the active engine across three engines (genuine WireMock${skipReason ? `; SKIPPED: ${skipReason}` : ''})`, () => {
  let backends: Awaited<ReturnType<typeof createTestBackends>>;
  let local: WireMockServer;
  let b: WireMockServer;
  let c: WireMockServer;
  let hub: RunningHub;
  let idB: string;
  let idC: string;

  const paths = async (engine: WireMockServer) => ((await call(engine.url, 'GET', '/__admin/mappings')).body.mappings as { request: { urlPath?: string } }[]).map((m) => m.request.urlPath).sort();

  beforeAll(async () => {
    [backends, local, b, c] = await Promise.all([createTestBackends(), startWireMock(), startWireMock(), startWireMock()]);
    hub = await startHub({ ...backends, env: { LOCAL_ENGINE_URL: local.url }, startJobs: false });
    idB = (await call(hub.url, 'POST', '/hub/admin/registry/servers', { body: { name: 'b', url: b.url } })).body.id;
    idC = (await call(hub.url, 'POST', '/hub/admin/registry/servers', { body: { name: 'c', url: c.url } })).body.id;
  });
  afterAll(async () => {
    await hub?.stop();
    await Promise.all([local?.remove(), b?.remove(), c?.remove()]);
    await backends?.cleanup();
  });

  it('acts on the active engine without a header and on the named engine with one, leaving the active engine as it was', async () => {
    await call(hub.url, 'POST', '/hub/admin/registry/active', { body: { id: idB } });
    expect((await call(hub.url, 'POST', '/hub/admin/mappings', { body: stub('/to-active') })).status).toBe(201);
    expect((await call(hub.url, 'POST', '/hub/admin/mappings', { body: stub('/to-c'), headers: { [TARGET]: idC } })).status).toBe(201);
    expect((await call(hub.url, 'POST', '/hub/admin/mappings', { body: stub('/to-local'), headers: { [TARGET]: 'local' } })).status).toBe(201);

    expect(await paths(b)).toEqual(['/to-active']);
    expect(await paths(c)).toEqual(['/to-c']);
    expect(await paths(local)).toEqual(['/to-local']);
    expect((await call(hub.url, 'GET', '/hub/admin/registry/active')).body.id).toBe(idB);

    const viaHub = async (target?: string) =>
      ((await call(hub.url, 'GET', '/hub/admin/mappings', { headers: target ? { [TARGET]: target } : {} })).body.mappings as { request: { urlPath: string } }[]).map((m) => m.request.urlPath);
    expect(await viaHub()).toEqual(['/to-active']);
    expect(await viaHub(idC)).toEqual(['/to-c']);
    expect(await viaHub('local')).toEqual(['/to-local']);
    expect(await viaHub('LOCAL')).toEqual(['/to-local']);
    expect(await viaHub(idC.toUpperCase())).toEqual(['/to-c']);
  });

  it('follows the active engine when it changes', async () => {
    await call(hub.url, 'POST', '/hub/admin/registry/active', { body: { id: idC } });
    expect((await call(hub.url, 'GET', '/hub/admin/mappings')).body.mappings.map((m: { request: { urlPath: string } }) => m.request.urlPath)).toEqual(['/to-c']);
    await call(hub.url, 'POST', '/hub/admin/registry/active', { body: { id: 'local' } });
    expect((await call(hub.url, 'GET', '/hub/admin/mappings')).body.mappings.map((m: { request: { urlPath: string } }) => m.request.urlPath)).toEqual(['/to-local']);
  });

  it('enables the proxy and records on the targeted engine only', async () => {
    await call(hub.url, 'POST', '/hub/admin/registry/active', { body: { id: idB } });
    const on = await call(hub.url, 'POST', '/hub/admin/proxy/enable', { body: { targetUrl: b.url }, headers: { [TARGET]: idC } });
    expect(on.body).toMatchObject({ enabled: true, engine: { id: idC, url: c.url } });
    expect((await call(hub.url, 'GET', '/hub/admin/proxy')).body).toMatchObject({ enabled: false, engine: { id: idB } });
    expect((await call(hub.url, 'GET', '/hub/admin/proxy', { headers: { [TARGET]: idC } })).body.enabled).toBe(true);
    expect((await call(hub.url, 'GET', '/hub/admin/proxy', { headers: { [TARGET]: 'local' } })).body.enabled).toBe(false);
    // requests to C that no stub matches now come from B
    expect(await (await fetch(`${c.url}/to-active`)).json()).toEqual({ path: '/to-active' });

    const started = await call(hub.url, 'POST', '/hub/admin/recordings/start', { body: {}, headers: { [TARGET]: idC } });
    expect(started.body).toMatchObject({ targetUrl: b.url, engine: { id: idC } });
    expect((await call(hub.url, 'GET', '/hub/admin/recordings/status', { headers: { [TARGET]: idC } })).body.status).toBe('Recording');
    expect((await call(hub.url, 'GET', '/hub/admin/recordings/status')).body.status).not.toBe('Recording');
    expect((await call(hub.url, 'GET', '/hub/admin/recordings/status', { headers: { [TARGET]: 'local' } })).body.status).not.toBe('Recording');
    await call(hub.url, 'POST', '/hub/admin/recordings/stop', { headers: { [TARGET]: idC } });
    await call(hub.url, 'POST', '/hub/admin/proxy/disable', { headers: { [TARGET]: idC } });
    expect((await call(hub.url, 'GET', '/hub/admin/registry/active')).body.id).toBe(idB);
  });

  it('deletes everything on the targeted engine only', async () => {
    expect((await call(hub.url, 'DELETE', '/hub/admin/mappings', { headers: { [TARGET]: 'local' } })).status).toBe(204);
    expect(await paths(local)).toEqual([]);
    expect(await paths(b)).toEqual(['/to-active']);
  });

  it('refuses unknown and malformed targets on every kind of management call without touching the active engine', async () => {
    const unknown = '99999999-9999-4999-8999-999999999999';
    const calls: [string, string, unknown?][] = [
      ['GET', '/hub/admin/mappings'],
      ['POST', '/hub/admin/mappings', stub('/x')],
      ['DELETE', '/hub/admin/mappings'],
      ['GET', '/hub/admin/proxy'],
      ['POST', '/hub/admin/proxy/enable', { targetUrl: b.url }],
      ['POST', '/hub/admin/recordings/start', { targetUrl: b.url }],
      ['GET', '/hub/admin/requests/unmatched'],
    ];
    for (const [method, path, body] of calls) {
      const res404 = await call(hub.url, method, path, { body, headers: { [TARGET]: unknown } });
      expect([method, path, res404.status]).toEqual([method, path, 404]);
      expect(res404.headers.get('content-type')).toContain('application/problem+json');
      const res400 = await call(hub.url, method, path, { body, headers: { [TARGET]: 'engine-b' } });
      expect([method, path, res400.status]).toEqual([method, path, 400]);
    }
    expect(await paths(b)).toEqual(['/to-active']);
    expect((await call(hub.url, 'GET', '/hub/admin/registry/active')).body.id).toBe(idB);
  });
});
