import { call, startTestEngine, startUpstream, type TestEngine } from './engine-harness';

let engine: TestEngine;
let upstream: Awaited<ReturnType<typeof startUpstream>>;

beforeAll(async () => {
  engine = await startTestEngine();
  upstream = await startUpstream((req, body, res) => {
    if (req.url?.startsWith('/counter')) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`call ${upstream.received.filter((r) => r.url.startsWith('/counter')).length}`);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'yes' }).end(JSON.stringify({ path: req.url, method: req.method, body: body.toString() }));
  });
});
afterAll(async () => {
  await engine.stop({ removeRoot: true });
  await upstream.close();
});
beforeEach(async () => {
  await call(engine.url, 'POST', '/__admin/reset');
  upstream.received.length = 0;
});

describe('proxyBaseUrl', () => {
  it('forwards method, path, query and body, cutting the prefix and adjusting headers', async () => {
    await call(engine.url, 'POST', '/__admin/mappings', {
      request: { method: 'ANY', urlPathPattern: '/api/.*' },
      response: { proxyBaseUrl: upstream.url, proxyUrlPrefixToRemove: '/api', additionalProxyRequestHeaders: { 'X-Added': 'added' }, removeProxyRequestHeaders: ['X-Secret'] },
    });
    const res = await call(engine.url, 'POST', '/api/items?x=1', { a: 1 }, { 'x-secret': 'hide', 'x-keep': 'keep' });
    expect(res.status).toBe(200);
    expect(res.headers['x-upstream']).toBe('yes');
    expect(res.json()).toEqual({ path: '/items?x=1', method: 'POST', body: '{"a":1}' });
    const seen = upstream.received[0];
    expect(seen.headers).toMatchObject({ 'x-added': 'added', 'x-keep': 'keep' });
    expect(seen.headers['x-secret']).toBeUndefined();
  });

  it('answers 500 naming the target when the upstream cannot be reached', async () => {
    await call(engine.url, 'POST', '/__admin/mappings', { request: { urlPath: '/down' }, response: { proxyBaseUrl: 'http://127.0.0.1:1' } });
    const res = await call(engine.url, 'GET', '/down');
    expect(res.status).toBe(500);
    expect(res.text).toContain('127.0.0.1:1');
  });
});

describe('webhooks', () => {
  it('sends a templated webhook after serving, from serveEventListeners and from legacy postServeActions', async () => {
    await call(engine.url, 'POST', '/__admin/mappings', {
      request: { method: 'POST', urlPath: '/order' },
      response: { status: 202 },
      serveEventListeners: [
        { name: 'webhook', parameters: { method: 'POST', url: `${upstream.url}/callback`, headers: { 'X-Order': '{{jsonPath originalRequest.body \'$.id\'}}' }, body: 'done {{originalRequest.url}}' } },
      ],
    });
    await call(engine.url, 'POST', '/__admin/mappings', {
      request: { method: 'GET', urlPath: '/legacy' },
      response: { status: 200 },
      postServeActions: { webhook: { method: 'PUT', url: `${upstream.url}/legacy-callback`, delay: { type: 'fixed', milliseconds: 10 } } },
    });
    expect((await call(engine.url, 'POST', '/order', { id: 'o-7' })).status).toBe(202);
    expect((await call(engine.url, 'GET', '/legacy')).status).toBe(200);
    const deadline = Date.now() + 3000;
    while (upstream.received.filter((r) => r.url.includes('callback')).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const callback = upstream.received.find((r) => r.url === '/callback');
    expect(callback).toMatchObject({ method: 'POST', headers: { 'x-order': 'o-7' } });
    expect(callback?.body.toString()).toBe('done /order');
    expect(upstream.received.find((r) => r.url === '/legacy-callback')?.method).toBe('PUT');
  });
});

describe('engine-wide proxy', () => {
  it('proxies only what no stub matches, replaces the target on a second enable and disables without touching other stubs', async () => {
    await call(engine.url, 'POST', '/__admin/mappings', { request: { urlPath: '/local' }, response: { body: 'local' } });
    expect((await call(engine.url, 'GET', '/__admin/mockyard/proxy')).json()).toMatchObject({ enabled: false, targetUrl: null });
    const enabled = await call(engine.url, 'POST', '/__admin/mockyard/proxy', { targetUrl: 'http://127.0.0.1:1' });
    expect(enabled.json()).toMatchObject({ enabled: true, targetUrl: 'http://127.0.0.1:1', stubId: expect.any(String) });
    await call(engine.url, 'POST', '/__admin/mockyard/proxy', { targetUrl: upstream.url });
    const state = (await call(engine.url, 'GET', '/__admin/mockyard/proxy')).json();
    expect(state).toMatchObject({ enabled: true, targetUrl: upstream.url, engine: { name: 'test-engine' } });
    const proxyStubs = (await call(engine.url, 'POST', '/__admin/mappings/find-by-metadata', { matchesJsonPath: '$.mockyard.engineProxy' })).json().mappings;
    expect(proxyStubs).toHaveLength(1);
    expect(proxyStubs[0]).toMatchObject({ priority: 2147483647, response: { proxyBaseUrl: upstream.url } });
    expect((await call(engine.url, 'GET', '/local')).text).toBe('local');
    expect((await call(engine.url, 'GET', '/elsewhere')).json().path).toBe('/elsewhere');
    expect((await call(engine.url, 'DELETE', '/__admin/mockyard/proxy')).json().enabled).toBe(false);
    const left = (await call(engine.url, 'GET', '/__admin/mappings')).json().mappings;
    expect(left.map((m: any) => m.request.urlPath)).toEqual(['/local']);
    expect((await call(engine.url, 'GET', '/elsewhere')).status).toBe(404);
  });

  it('rejects a target that is not an absolute http URL', async () => {
    const res = await call(engine.url, 'POST', '/__admin/mockyard/proxy', { targetUrl: 'ftp://x' });
    expect(res.status).toBe(422);
    expect(res.json().errors[0].source.pointer).toBe('/targetUrl');
  });
});

describe('recording', () => {
  it('records proxied traffic into stubs that replay without the upstream, and re-recording does not duplicate them', async () => {
    expect((await call(engine.url, 'GET', '/__admin/recordings/status')).json().status).toMatch(/NeverStarted|Stopped/);
    expect((await call(engine.url, 'POST', '/__admin/recordings/start', { targetBaseUrl: upstream.url })).status).toBe(200);
    expect((await call(engine.url, 'GET', '/__admin/recordings/status')).json().status).toBe('Recording');
    expect((await call(engine.url, 'GET', '/things/1')).json().path).toBe('/things/1');
    await call(engine.url, 'POST', '/things', { name: 'n' });
    await call(engine.url, 'GET', '/things?page=2');
    const stopped = (await call(engine.url, 'POST', '/__admin/recordings/stop')).json();
    expect(stopped.mappings).toHaveLength(3);
    expect(stopped.mappings.find((m: any) => m.request.urlPath === '/things').request.queryParameters).toEqual({ page: { hasExactly: [{ equalTo: '2' }] } });
    expect(stopped.mappings.find((m: any) => m.request.method === 'POST').request.bodyPatterns[0]).toMatchObject({ equalToJson: '{"name":"n"}' });
    expect((await call(engine.url, 'GET', '/__admin/recordings/status')).json().status).toBe('Stopped');

    const before = upstream.received.length;
    const replay = await call(engine.url, 'GET', '/things/1');
    expect(replay.json().path).toBe('/things/1');
    expect((await call(engine.url, 'GET', '/things?page=2')).json().path).toBe('/things?page=2');
    expect((await call(engine.url, 'GET', '/things?page=3')).status).toBe(404);
    expect(upstream.received.length).toBe(before);

    await call(engine.url, 'POST', '/__admin/recordings/start', { targetBaseUrl: upstream.url });
    // the recorder's proxy outranks the recorded stub, so this goes upstream again
    await call(engine.url, 'GET', '/things/1');
    await call(engine.url, 'POST', '/__admin/recordings/stop');
    const stubs = (await call(engine.url, 'GET', '/__admin/mappings')).json().mappings;
    expect(stubs.filter((m: any) => m.request.url === '/things/1')).toHaveLength(1);
  });

  it('with persist false adds the recorded stubs in memory (inline bodies, not persistent), as WireMock does', async () => {
    await call(engine.url, 'POST', '/__admin/recordings/start', { targetBaseUrl: upstream.url, persist: false });
    await call(engine.url, 'GET', '/memory/1');
    const [recorded] = (await call(engine.url, 'POST', '/__admin/recordings/stop')).json().mappings;
    expect(recorded).toMatchObject({ request: { url: '/memory/1' }, response: { status: 200, body: expect.stringContaining('/memory/1') } });
    expect(recorded.persistent).toBeUndefined();
    expect(recorded.response.bodyFileName).toBeUndefined();
    const stubs = (await call(engine.url, 'GET', '/__admin/mappings')).json().mappings;
    expect(stubs.filter((m: any) => m.request.url === '/memory/1').map((m: any) => m.id)).toEqual([recorded.id]);
    const before = upstream.received.length;
    expect((await call(engine.url, 'GET', '/memory/1')).json().path).toBe('/memory/1');
    expect(upstream.received.length).toBe(before);
  });

  it("records the upstream's headers, not the Matched-Stub-Id/-Name of the recorder's proxy stub: a replay names its own stub", async () => {
    await call(engine.url, 'POST', '/__admin/recordings/start', { targetBaseUrl: upstream.url });
    await call(engine.url, 'GET', '/named/1');
    const [recorded] = (await call(engine.url, 'POST', '/__admin/recordings/stop')).json().mappings;
    expect(Object.keys(recorded.response.headers).map((h) => h.toLowerCase())).toEqual(['content-type', 'x-upstream']);
    const replay = await call(engine.url, 'GET', '/named/1');
    expect(replay.headers['matched-stub-id']).toBe(recorded.id);
    expect(replay.headers['matched-stub-name']).toBe(recorded.name);
  });

  it('records repeats as a scenario', async () => {
    await call(engine.url, 'POST', '/__admin/recordings/start', { targetBaseUrl: upstream.url, persist: true, repeatsAsScenarios: true });
    await call(engine.url, 'GET', '/counter');
    await call(engine.url, 'GET', '/counter');
    const { mappings } = (await call(engine.url, 'POST', '/__admin/recordings/stop')).json();
    expect(mappings).toHaveLength(2);
    expect(mappings[0].scenarioName).toBeDefined();
    expect((await call(engine.url, 'GET', '/counter')).text).toBe('call 1');
    expect((await call(engine.url, 'GET', '/counter')).text).toBe('call 2');
  });

  it('refuses to stop when not recording and to start with a target that is not a URL', async () => {
    const stop = await call(engine.url, 'POST', '/__admin/recordings/stop');
    expect(stop.status).toBe(400);
    expect(stop.json().errors[0]).toMatchObject({ code: 30, title: 'Not currently recording.' });
    expect((await call(engine.url, 'POST', '/__admin/recordings/start', { targetBaseUrl: 'nope' })).status).toBe(422);
  });

  it('snapshots proxied requests from the journal, filtered, as IDS or FULL', async () => {
    await call(engine.url, 'POST', '/__admin/mappings', { request: { urlPathPattern: '/snap/.*' }, response: { proxyBaseUrl: upstream.url } });
    await call(engine.url, 'GET', '/snap/a');
    await call(engine.url, 'GET', '/snap/b');
    const ids = (await call(engine.url, 'POST', '/__admin/recordings/snapshot', { filters: { urlPath: '/snap/a' }, outputFormat: 'IDS', persist: false })).json();
    expect(ids.ids).toHaveLength(1);
    const full = (await call(engine.url, 'POST', '/__admin/recordings/snapshot', { persist: true })).json();
    expect(full.mappings.map((m: any) => m.request.url).sort()).toEqual(['/snap/a', '/snap/b']);
    expect(full.mappings[0].response.body).toContain('/snap/');
  });
});
