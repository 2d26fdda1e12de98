import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { call, createTestBackends, eventually, startHub, type RunningHub } from './support/start-hub';
import { startMockyardEngine, type MockyardEngine } from './support/mockyard-engine';

jest.setTimeout(45000);

const stub = (path: string, body: unknown = { path }) => ({ request: { method: 'GET', urlPath: path }, response: { status: 200, jsonBody: body } });
const TARGET = 'X-Hub-Target-Server';

/** The same flows as the WireMock files, against Mockyard's own engine (runs with or without Java). */
describe("the hub driving Mockyard's own engine (services/engine, in-process)", () => {
  let backends: Awaited<ReturnType<typeof createTestBackends>>;
  let local: MockyardEngine;
  let remote: MockyardEngine;
  let upstream: MockyardEngine;
  let hub: RunningHub;
  let remoteId: string;
  const urlPaths = async (engine: MockyardEngine) => ((await call(engine.url, 'GET', '/__admin/mappings')).body.mappings as { request: { urlPath?: string; urlPattern?: string } }[]).map((m) => m.request.urlPath ?? m.request.urlPattern).sort();

  beforeAll(async () => {
    [backends, local, remote, upstream] = await Promise.all([createTestBackends(), startMockyardEngine(), startMockyardEngine(), startMockyardEngine()]);
    hub = await startHub({ ...backends, env: { LOCAL_ENGINE_URL: local.url, HUB_FANOUT_BACKOFF_MS: '200', HUB_ENGINE_BREAKER_VOLUME_THRESHOLD: '2', HUB_ENGINE_BREAKER_RESET_TIMEOUT_MS: '1000' } });
    remoteId = (await call(hub.url, 'POST', '/hub/admin/registry/servers', { body: { name: 'remote', url: remote.url } })).body.id;
    await call(upstream.url, 'POST', '/__admin/mappings', { body: stub('/up', { from: 'upstream' }) });
  });
  afterAll(async () => {
    await hub?.stop();
    await Promise.all([local?.remove(), remote?.remove(), upstream?.remove()]);
    await backends?.cleanup();
  });

  it('creates, reads, updates, imports and deletes stubs, which the engine serves', async () => {
    const created = await call(hub.url, 'POST', '/hub/admin/mappings', { body: { ...stub('/hello', { hi: 1 }), priority: 2 } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.any(String), priority: 2 });
    expect(await (await fetch(`${local.url}/hello`)).json()).toEqual({ hi: 1 });
    expect((await call(hub.url, 'GET', '/hub/admin/mappings')).body).toMatchObject({ mappings: [{ id: created.body.id }], meta: { total: 1 } });
    expect((await call(hub.url, 'GET', `/hub/admin/mappings/${created.body.id}`)).body.request.urlPath).toBe('/hello');
    expect((await call(hub.url, 'PUT', `/hub/admin/mappings/${created.body.id}`, { body: stub('/hello', { hi: 2 }) })).body.response.jsonBody).toEqual({ hi: 2 });
    expect((await call(hub.url, 'POST', '/hub/admin/mappings/import', { body: { mappings: [stub('/a'), stub('/b')] } })).body.imported).toBe(2);
    expect(await urlPaths(local)).toEqual(['/a', '/b', '/hello']);
    expect((await call(hub.url, 'DELETE', `/hub/admin/mappings/${created.body.id}`)).status).toBe(204);
    expect((await call(hub.url, 'GET', `/hub/admin/mappings/${created.body.id}`)).status).toBe(404);
    expect((await call(hub.url, 'DELETE', '/hub/admin/mappings')).status).toBe(204);
    expect(await urlPaths(local)).toEqual([]);
  });

  it('creates and lists a stub whose method is a WireMock 3 pattern ({oneOf: [...]}), as the engine accepts it', async () => {
    const methodPattern = { request: { method: { oneOf: ['GET', 'POST'] }, urlPath: '/either' }, response: { status: 200, body: 'either' } };
    const created = await call(hub.url, 'POST', '/hub/admin/mappings', { body: methodPattern });
    expect(created.status).toBe(201);
    expect(created.body.request.method).toEqual({ oneOf: ['GET', 'POST'] });
    expect((await fetch(`${local.url}/either`, { method: 'POST' })).status).toBe(200);
    expect((await fetch(`${local.url}/either`, { method: 'DELETE' })).status).toBe(404);
    // one made on the engine directly must not break the hub's reading of the engine's stubs
    await call(local.url, 'POST', '/__admin/mappings', { body: { request: { method: { noneOf: ['DELETE'] }, urlPath: '/not-delete' }, response: { status: 200 } } });
    const listed = await call(hub.url, 'GET', '/hub/admin/mappings');
    expect(listed.status).toBe(200);
    expect(listed.body.mappings.map((m: { request: { method: unknown } }) => m.request.method)).toEqual(expect.arrayContaining([{ oneOf: ['GET', 'POST'] }, { noneOf: ['DELETE'] }]));
    expect((await call(hub.url, 'GET', `/hub/admin/mappings/${created.body.id}`)).status).toBe(200);
    await call(hub.url, 'DELETE', '/hub/admin/mappings');
  });

  it('gets, replaces and deletes a stub by its id in upper case', async () => {
    const id = (await call(hub.url, 'POST', '/hub/admin/mappings', { body: stub('/upper') })).body.id as string;
    const upper = id.toUpperCase();
    const got = await call(hub.url, 'GET', `/hub/admin/mappings/${upper}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id, request: { urlPath: '/upper' } });
    const replaced = await call(hub.url, 'PUT', `/hub/admin/mappings/${upper}`, { body: stub('/upper', { v: 2 }) });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id, response: { jsonBody: { v: 2 } } });
    expect(await urlPaths(local)).toEqual(['/upper']);
    expect((await call(hub.url, 'DELETE', `/hub/admin/mappings/${upper}`)).status).toBe(204);
    expect(await urlPaths(local)).toEqual([]);
  });

  it("passes the engine's refusal of an invalid stub through with its reason", async () => {
    const res = await call(hub.url, 'POST', '/hub/admin/mappings', { body: { request: { method: 'GET', urlPathx: '/x' }, response: { status: 200 } } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.engine.id).toBe('local');
  });

  it('shows the journal, unmatched requests and near misses', async () => {
    await call(hub.url, 'DELETE', '/hub/admin/requests');
    await call(hub.url, 'POST', '/hub/admin/mappings', { body: stub('/orders') });
    await (await fetch(`${local.url}/orders`)).text();
    await (await fetch(`${local.url}/orderz`)).text();
    const journal = await eventually(() => call(hub.url, 'GET', '/hub/admin/requests'), (r) => r.body.requests.length === 2);
    expect(journal.status).toBe(200);
    expect((await call(hub.url, 'GET', '/hub/admin/requests/unmatched')).body.requests.map((r: { url: string }) => r.url)).toEqual(['/orderz']);
    const near = await call(hub.url, 'GET', '/hub/admin/requests/unmatched/near-misses');
    expect(near.body.nearMisses[0].stubMapping.request.urlPath).toBe('/orders');
    await call(hub.url, 'DELETE', '/hub/admin/mappings');
  });

  it("enables and disables the proxy through the catch-all stub, which the engine's own proxy API recognises", async () => {
    const on = await call(hub.url, 'POST', '/hub/admin/proxy/enable', { body: { targetUrl: upstream.url } });
    expect(on.body).toMatchObject({ enabled: true, targetUrl: upstream.url });
    expect((await call(local.url, 'GET', '/__admin/mockyard/proxy')).body).toMatchObject({ enabled: true, targetUrl: upstream.url, stubId: on.body.stubId });
    expect(await (await fetch(`${local.url}/up`)).json()).toEqual({ from: 'upstream' });
    expect((await call(hub.url, 'POST', '/hub/admin/proxy/enable', { body: { targetUrl: upstream.url } })).body.stubId).toBe(on.body.stubId);
    expect((await call(hub.url, 'POST', '/hub/admin/proxy/disable')).body.enabled).toBe(false);
    expect((await call(local.url, 'GET', '/__admin/mockyard/proxy')).body.enabled).toBe(false);
    // and the other way round: the engine's own API sets it, the hub reads it
    await call(local.url, 'POST', '/__admin/mockyard/proxy', { body: { targetUrl: upstream.url } });
    expect((await call(hub.url, 'GET', '/hub/admin/proxy')).body).toMatchObject({ enabled: true, targetUrl: upstream.url });
    await call(hub.url, 'POST', '/hub/admin/proxy/disable');
    expect(await urlPaths(local)).toEqual([]);
  });

  it('records through the engine into stubs and reports the recording status', async () => {
    expect((await call(hub.url, 'POST', '/hub/admin/recordings/start', { body: { targetUrl: upstream.url } })).body).toMatchObject({ status: 'Recording' });
    expect((await call(hub.url, 'GET', '/hub/admin/recordings/status')).body.status).toBe('Recording');
    expect(await (await fetch(`${local.url}/up`)).json()).toEqual({ from: 'upstream' });
    const stopped = await call(hub.url, 'POST', '/hub/admin/recordings/stop');
    expect(stopped.status).toBe(200);
    expect(stopped.body.mappings.map((m: { request: { url?: string; urlPath?: string } }) => m.request.url ?? m.request.urlPath)).toEqual(['/up']);
    expect((await call(hub.url, 'GET', '/hub/admin/recordings/status')).body.status).toBe('Stopped');
    expect(await (await fetch(`${local.url}/up`)).json()).toEqual({ from: 'upstream' });
    await call(hub.url, 'DELETE', '/hub/admin/mappings');
  });

  it('keeps targeted calls on the named engine and the active engine unchanged', async () => {
    await call(hub.url, 'POST', '/hub/admin/registry/active', { body: { id: remoteId } });
    await call(hub.url, 'POST', '/hub/admin/mappings', { body: stub('/on-remote') });
    await call(hub.url, 'POST', '/hub/admin/mappings', { body: stub('/on-local'), headers: { [TARGET]: 'local' } });
    expect(await urlPaths(remote)).toEqual(['/on-remote']);
    expect(await urlPaths(local)).toEqual(['/on-local']);
    expect((await call(hub.url, 'GET', '/hub/admin/registry/active')).body.id).toBe(remoteId);
    await call(hub.url, 'POST', '/hub/admin/registry/active', { body: { id: 'local' } });
  });

  it('fans stubs out to both engines and reports per-engine results', async () => {
    const started = await call(hub.url, 'POST', '/hub/admin/fanout', { body: { serverIds: ['local', remoteId], mode: 'replace', mappings: [stub('/fleet')] } });
    expect(started.status).toBe(202);
    const done = await eventually(() => call(hub.url, 'GET', `/hub/admin/fanout/${started.body.id}`), (r) => r.body.state !== 'running');
    expect(done.body.state).toBe('completed');
    expect(await urlPaths(local)).toEqual(['/fleet']);
    expect(await urlPaths(remote)).toEqual(['/fleet']);
  });

  it('reports the active engine in /actuator/health and the probe results in the registry', async () => {
    const health = await call(hub.url, 'GET', '/actuator/health');
    expect(health.status).toBe(200);
    expect(health.body.components.engine).toMatchObject({ status: 'UP', details: { id: 'local', url: local.url, stubCount: 1 } });
    const servers = (await call(hub.url, 'POST', '/hub/admin/registry/health-check')).body;
    expect(servers.map((s: { health: string }) => s.health)).toEqual(['UP', 'UP']);
  });

  it('answers 502 while the engine is down, 503 once its breaker opens, and recovers when it is back', async () => {
    await remote.stop();
    const first = await call(hub.url, 'GET', '/hub/admin/mappings', { headers: { [TARGET]: remoteId } });
    expect(first.status).toBe(502);
    expect(first.body.engine.id).toBe(remoteId);
    const open = await eventually(() => call(hub.url, 'GET', '/hub/admin/mappings', { headers: { [TARGET]: remoteId } }), (r) => r.status === 503, 5000);
    expect(open.headers.get('retry-after')).toBeTruthy();
    await remote.restart();
    await eventually(() => call(hub.url, 'GET', '/hub/admin/mappings', { headers: { [TARGET]: remoteId } }), (r) => r.status === 200, 10000);
  });

  it('documents every route in /openapi.json with the targeting header', async () => {
    const doc = (await call(hub.url, 'GET', '/openapi.json')).body;
    for (const path of ['/hub/admin/registry/servers', '/hub/admin/registry/servers/{id}', '/hub/admin/registry/active', '/hub/admin/mappings', '/hub/admin/mappings/{id}', '/hub/admin/mappings/import', '/hub/admin/requests/unmatched/near-misses', '/hub/admin/proxy/enable', '/hub/admin/recordings/start', '/hub/admin/recordings/snapshot', '/hub/admin/fanout', '/hub/admin/fanout/{id}', '/actuator/health', '/actuator/health/readiness', '/mcp']) {
      expect([path, Boolean(doc.paths[path])]).toEqual([path, true]);
    }
    expect(doc.paths['/hub/admin/mappings'].get.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'X-Hub-Target-Server', in: 'header', required: false })]));
    expect(doc.paths['/hub/admin/registry/servers'].post.requestBody.content['application/json'].schema.required).toEqual(['name', 'url']);
  });

  it('serves the MCP tools against the engine', async () => {
    const client = new Client({ name: 'hub-engine-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${hub.url}/mcp`)));
    try {
      const created = (await client.callTool({ name: 'create_stub', arguments: { targetServer: remoteId, stub: stub('/via-mcp') } })) as { content: { text: string }[]; isError?: boolean };
      expect(created.isError).toBeFalsy();
      expect(await urlPaths(remote)).toContain('/via-mcp');
      const unmatched = (await client.callTool({ name: 'list_unmatched_requests', arguments: { targetServer: 'local' } })) as { content: { text: string }[] };
      expect(JSON.parse(unmatched.content[0].text)).toMatchObject({ requests: expect.any(Array), nearMisses: expect.any(Array) });
    } finally {
      await client.close();
    }
  });
});
