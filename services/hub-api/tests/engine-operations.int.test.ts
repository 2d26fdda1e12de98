import { call, createTestBackends, eventually, startHub, type RunningHub } from './support/start-hub';
import { startPrefixProxy } from './support/prefix-proxy';
import { startWireMock, wireMockUnavailableReason, type WireMockServer } from './support/wiremock';
import type { StartedServer } from '@mockyard/service-kit';

jest.setTimeout(30000);
const skipReason = wireMockUnavailableReason();
const describeWithEngines = skipReason ? describe.skip : describe;
if (skipReason) process.stderr.write(`\n[hub-api] SKIPPED engine operation tests with genuine WireMock: ${skipReason}\n`);

const stub = (path: string, body: unknown = { path }) => ({ request: { method: 'GET', urlPath: path }, response: { status: 200, jsonBody: body } });

describeWithEngines(`stubs, journal, proxy and recording on the active engine (genuine WireMock${skipReason ? `; SKIPPED: ${skipReason}` : ''})`, () => {
  let backends: Awaited<ReturnType<typeof createTestBackends>>;
  let engine: WireMockServer; // the local engine
  let upstream: WireMockServer; // what the proxy and the recorder forward to
  let hub: RunningHub;

  beforeAll(async () => {
    [backends, engine, upstream] = await Promise.all([createTestBackends(), startWireMock({ https: true }), startWireMock()]);
    hub = await startHub({ ...backends, env: { LOCAL_ENGINE_URL: engine.url }, startJobs: false });
    await call(upstream.url, 'POST', '/__admin/mappings', { body: stub('/upstream/hello', { from: 'upstream' }) });
  });
  afterAll(async () => {
    await hub?.stop();
    await Promise.all([engine?.remove(), upstream?.remove()]);
    await backends?.cleanup();
  });
  beforeEach(async () => {
    // DELETE (not reset): reset would reload stubs a recording persisted to the engine's files
    await fetch(`${engine.url}/__admin/mappings`, { method: 'DELETE' });
    await fetch(`${engine.url}/__admin/requests`, { method: 'DELETE' });
  });

  it('creates a stub (201) that the engine then serves, and lists it in WireMock\'s {mappings, meta} shape', async () => {
    const created = await call(hub.url, 'POST', '/hub/admin/mappings', { body: { ...stub('/hello', { hi: 1 }), priority: 3 } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.any(String), priority: 3, request: { method: 'GET', urlPath: '/hello' }, response: { status: 200, jsonBody: { hi: 1 } } });
    expect(await (await fetch(`${engine.url}/hello`)).json()).toEqual({ hi: 1 });
    const list = await call(hub.url, 'GET', '/hub/admin/mappings');
    expect(list.status).toBe(200);
    expect(list.body.meta.total).toBe(1);
    expect(list.body.mappings[0].id).toBe(created.body.id);
  });

  it('gets, updates and deletes one stub, with 404 once it is gone and 400 for a malformed id', async () => {
    const { body: s } = await call(hub.url, 'POST', '/hub/admin/mappings', { body: stub('/one') });
    expect((await call(hub.url, 'GET', `/hub/admin/mappings/${s.id}`)).body.request.urlPath).toBe('/one');
    const updated = await call(hub.url, 'PUT', `/hub/admin/mappings/${s.id}`, { body: stub('/one', { v: 2 }) });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: s.id, response: { jsonBody: { v: 2 } } });
    expect(await (await fetch(`${engine.url}/one`)).json()).toEqual({ v: 2 });
    expect((await call(hub.url, 'DELETE', `/hub/admin/mappings/${s.id}`)).status).toBe(204);
    const gone = await call(hub.url, 'GET', `/hub/admin/mappings/${s.id}`);
    expect(gone.status).toBe(404);
    expect(gone.headers.get('content-type')).toContain('application/problem+json');
    expect(gone.body.engine).toMatchObject({ id: 'local', url: engine.url });
    expect((await call(hub.url, 'GET', '/hub/admin/mappings/not-a-uuid')).status).toBe(400);
  });

  it('passes the engine\'s own 422 through with its reason when it refuses a stub', async () => {
    const res = await call(hub.url, 'POST', '/hub/admin/mappings', { body: { request: { method: 'GET', urlPathx: '/bad' }, response: { status: 200 } } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContain('urlPathx');
    expect(res.body.errors).toEqual([{ path: 'body.request.urlPathx', message: expect.stringContaining('urlPathx') }]);
    expect(res.body.engine.id).toBe('local');
  });

  it('answers 400 without calling the engine when the body is not a stub', async () => {
    const res = await call(hub.url, 'POST', '/hub/admin/mappings', { body: { response: { status: 200 } } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('body.request');
  });

  it('imports many stubs and deletes them all', async () => {
    const imported = await call(hub.url, 'POST', '/hub/admin/mappings/import', { body: { mappings: [stub('/i1'), stub('/i2'), stub('/i3')] } });
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ imported: 3, engine: { id: 'local' } });
    expect((await call(hub.url, 'GET', '/hub/admin/mappings')).body.meta.total).toBe(3);
    expect((await call(hub.url, 'GET', '/hub/admin/mappings?limit=2')).body.mappings).toHaveLength(2);
    expect((await call(hub.url, 'DELETE', '/hub/admin/mappings')).status).toBe(204);
    expect((await call(hub.url, 'GET', '/hub/admin/mappings')).body.meta.total).toBe(0);
  });

  it('counts what an import did: stubs IGNOREd for an id the engine has, and stubs deleteAllNotInImport removed', async () => {
    const [a, b, c] = ['00000000-0000-4000-8000-00000000001a', '00000000-0000-4000-8000-00000000001b', '00000000-0000-4000-8000-00000000001c'];
    expect((await call(hub.url, 'POST', '/hub/admin/mappings/import', { body: { mappings: [{ id: a, ...stub('/a') }, { id: b, ...stub('/b') }] } })).body).toMatchObject({ imported: 2, ignored: 0, removed: 0 });
    const ignoring = await call(hub.url, 'POST', '/hub/admin/mappings/import', { body: { mappings: [{ id: a, ...stub('/a', 'changed') }, { id: c, ...stub('/c') }, stub('/no-id')], importOptions: { duplicatePolicy: 'IGNORE' } } });
    expect(ignoring.body).toMatchObject({ imported: 2, ignored: 1, removed: 0 });
    expect((await call(hub.url, 'GET', `/hub/admin/mappings/${a}`)).body.response.jsonBody).toEqual({ path: '/a' });
    const replacing = await call(hub.url, 'POST', '/hub/admin/mappings/import', { body: { mappings: [{ id: c, ...stub('/c') }], importOptions: { deleteAllNotInImport: true } } });
    expect(replacing.body).toMatchObject({ imported: 1, ignored: 0, removed: 3 });
    expect((await call(hub.url, 'GET', '/hub/admin/mappings')).body.meta.total).toBe(1);
    await call(hub.url, 'DELETE', '/hub/admin/mappings');
  });

  it('shows the request journal, unmatched requests and their near misses, and clears the journal', async () => {
    await call(hub.url, 'POST', '/hub/admin/mappings', { body: stub('/orders') });
    await (await fetch(`${engine.url}/orders`)).text();
    await (await fetch(`${engine.url}/orderz`)).text();
    const journal = await eventually(() => call(hub.url, 'GET', '/hub/admin/requests'), (r) => r.body.requests.length === 2);
    expect(journal.body.requests.map((r: { request: { url: string } }) => r.request.url).sort()).toEqual(['/orders', '/orderz']);
    const unmatched = await call(hub.url, 'GET', '/hub/admin/requests/unmatched');
    expect(unmatched.body.requests.map((r: { url: string }) => r.url)).toEqual(['/orderz']);
    const near = await call(hub.url, 'GET', '/hub/admin/requests/unmatched/near-misses');
    expect(near.body.nearMisses[0]).toMatchObject({ request: { url: '/orderz' }, stubMapping: { request: { urlPath: '/orders' } } });
    expect((await call(hub.url, 'DELETE', '/hub/admin/requests')).status).toBe(204);
    expect((await call(hub.url, 'GET', '/hub/admin/requests')).body.requests).toEqual([]);
  });

  it('enables the proxy idempotently as one catch-all stub, retargets it in place, and disables it without touching other stubs', async () => {
    const own = (await call(hub.url, 'POST', '/hub/admin/mappings', { body: stub('/upstream/hello', { from: 'engine' }) })).body;
    expect((await call(hub.url, 'GET', '/hub/admin/proxy')).body).toMatchObject({ enabled: false, targetUrl: null, engine: { id: 'local', url: engine.url } });

    const on = await call(hub.url, 'POST', '/hub/admin/proxy/enable', { body: { targetUrl: upstream.url } });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ enabled: true, targetUrl: upstream.url, stubId: expect.any(String), engine: { id: 'local' } });
    const again = await call(hub.url, 'POST', '/hub/admin/proxy/enable', { body: { targetUrl: upstream.url } });
    expect(again.body.stubId).toBe(on.body.stubId);
    expect((await call(hub.url, 'GET', '/hub/admin/mappings')).body.meta.total).toBe(2);

    await call(upstream.url, 'POST', '/__admin/mappings', { body: stub('/only-upstream', { from: 'upstream' }) });
    expect(await (await fetch(`${engine.url}/only-upstream`)).json()).toEqual({ from: 'upstream' });
    expect(await (await fetch(`${engine.url}/upstream/hello`)).json()).toEqual({ from: 'engine' }); // own stubs still win

    const moved = await call(hub.url, 'POST', '/hub/admin/proxy/enable', { body: { targetUrl: 'http://127.0.0.1:9/elsewhere' } });
    expect(moved.body).toMatchObject({ stubId: on.body.stubId, targetUrl: 'http://127.0.0.1:9/elsewhere' });

    const off = await call(hub.url, 'POST', '/hub/admin/proxy/disable');
    expect(off.body).toMatchObject({ enabled: false, targetUrl: null });
    expect((await call(hub.url, 'POST', '/hub/admin/proxy/disable')).status).toBe(200);
    const left = (await call(hub.url, 'GET', '/hub/admin/mappings')).body.mappings;
    expect(left.map((m: { id: string }) => m.id)).toEqual([own.id]);
  });

  it.each([[{}], [{ targetUrl: 'not a url' }], [{ targetUrl: '/relative' }]])('refuses to enable the proxy with %j (400)', async (body) => {
    const res = await call(hub.url, 'POST', '/hub/admin/proxy/enable', { body });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('body.targetUrl');
  });

  it('leaves one proxy stub when several enables arrive at once (WireMock does not dedupe them itself)', async () => {
    const targets = ['a', 'b', 'c', 'd'].map((t) => `${upstream.url}/${t}`);
    const answers = await Promise.all(targets.map((targetUrl) => call(hub.url, 'POST', '/hub/admin/proxy/enable', { body: { targetUrl } })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const mappings = (await call(engine.url, 'GET', '/__admin/mappings')).body.mappings as { id: string; priority?: number }[];
    const proxies = mappings.filter((m) => m.priority === 2147483647);
    expect(proxies).toHaveLength(1);
    expect(new Set(answers.map((a) => a.body.stubId))).toEqual(new Set([proxies[0].id]));
    await call(hub.url, 'POST', '/hub/admin/proxy/disable');
  });

  it('records traffic through the engine into stubs that replay after the recording stops', async () => {
    expect((await call(hub.url, 'GET', '/hub/admin/recordings/status')).body.status).toMatch(/NeverStarted|Stopped/);
    const start = await call(hub.url, 'POST', '/hub/admin/recordings/start', { body: { targetUrl: upstream.url, persist: true, repeatsAsScenarios: false } });
    expect(start.status).toBe(200);
    expect(start.body).toMatchObject({ status: 'Recording', targetUrl: upstream.url, engine: { id: 'local' } });
    expect((await call(hub.url, 'GET', '/hub/admin/recordings/status')).body).toMatchObject({ status: 'Recording', engine: { id: 'local' } });
    expect(await (await fetch(`${engine.url}/upstream/hello`)).json()).toEqual({ from: 'upstream' });
    const stop = await call(hub.url, 'POST', '/hub/admin/recordings/stop');
    expect(stop.status).toBe(200);
    expect(stop.body.mappings).toHaveLength(1);
    expect(stop.body.mappings[0].request.url).toBe('/upstream/hello');
    expect((await call(hub.url, 'GET', '/hub/admin/recordings/status')).body.status).toBe('Stopped');
    await call(upstream.url, 'DELETE', '/__admin/mappings');
    const replay = await fetch(`${engine.url}/upstream/hello`);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ from: 'upstream' });
    await call(upstream.url, 'POST', '/__admin/mappings', { body: stub('/upstream/hello', { from: 'upstream' }) });
  });

  it('records from the engine\'s proxy target when start has no targetUrl, and says so when there is none', async () => {
    const none = await call(hub.url, 'POST', '/hub/admin/recordings/start', { body: {} });
    expect(none.status).toBe(400);
    expect(none.body.detail).toContain('targetUrl');
    await call(hub.url, 'POST', '/hub/admin/proxy/enable', { body: { targetUrl: upstream.url } });
    const start = await call(hub.url, 'POST', '/hub/admin/recordings/start', { headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(start.body.targetUrl).toBe(upstream.url);
    await call(hub.url, 'POST', '/hub/admin/recordings/stop');
  });

  it('snapshots the request journal into stubs', async () => {
    await call(hub.url, 'POST', '/hub/admin/proxy/enable', { body: { targetUrl: upstream.url } });
    expect(await (await fetch(`${engine.url}/upstream/hello`)).json()).toEqual({ from: 'upstream' });
    await eventually(() => call(hub.url, 'GET', '/hub/admin/requests'), (r) => r.body.requests.length === 1);
    const snap = await call(hub.url, 'POST', '/hub/admin/recordings/snapshot', { body: { persist: false } });
    expect(snap.status).toBe(200);
    expect(snap.body.mappings.map((m: { request: { url: string } }) => m.request.url)).toContain('/upstream/hello');
  });

  describe('engines behind a path prefix or https', () => {
    let prefixed: StartedServer;
    beforeAll(async () => {
      prefixed = await startPrefixProxy(upstream.url, '/engines/up');
    });
    afterAll(() => prefixed.close(100));

    it('manages an engine whose URL carries a path prefix', async () => {
      const s = (await call(hub.url, 'POST', '/hub/admin/registry/servers', { body: { name: 'prefixed', url: `${prefixed.url}/engines/up` } })).body;
      const list = await call(hub.url, 'GET', '/hub/admin/mappings', { headers: { 'X-Hub-Target-Server': s.id } });
      expect(list.status).toBe(200);
      expect(list.body.mappings.map((m: { request: { urlPath: string } }) => m.request.urlPath)).toContain('/upstream/hello');
    });

    it('manages an https engine when its certificate is trusted, and answers 502 naming the engine when it is not', async () => {
      const s = (await call(hub.url, 'POST', '/hub/admin/registry/servers', { body: { name: 'tls', url: engine.httpsUrl } })).body;
      const untrusted = await call(hub.url, 'GET', '/hub/admin/mappings', { headers: { 'X-Hub-Target-Server': s.id } });
      expect(untrusted.status).toBe(502);
      expect(untrusted.body.engine).toMatchObject({ id: s.id, url: engine.httpsUrl });
      const insecure = await startHub({ ...backends, env: { LOCAL_ENGINE_URL: engine.url, HUB_ENGINE_INSECURE_TLS: 'true' }, startJobs: false });
      try {
        await call(insecure.url, 'POST', '/hub/admin/mappings', { body: stub('/tls') });
        const list = await eventually(() => call(insecure.url, 'GET', '/hub/admin/mappings', { headers: { 'X-Hub-Target-Server': s.id } }), (r) => r.status === 200);
        expect(list.body.mappings.map((m: { request: { urlPath: string } }) => m.request.urlPath)).toContain('/tls');
      } finally {
        await insecure.stop();
      }
    });
  });
});
