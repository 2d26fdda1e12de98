// The two specs' flows as a user runs them, through the gateway's one base URL (the whole topology as
// processes on free ports): proxy a request and read it back from the log; register an engine, make it
// active, create stubs on it and on `local` through the target header, call them on their engines,
// enable the proxy, record and stop, read /actuator/health.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startExtraEngine, startStack, type RunningStack } from '@mockyard/testkit';

jest.setTimeout(180_000);

let stack: RunningStack;
let remote: { url: string; stop: () => Promise<void> };
let upstream: Server;
let upstreamUrl: string;
const seenUpstream: { method: string; url: string; body: string; contentType?: string }[] = [];

beforeAll(async () => {
  upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seenUpstream.push({ method: req.method!, url: req.url!, body, contentType: req.headers['content-type'] });
      res.writeHead(201, { 'content-type': 'application/json', 'x-upstream': 'yes' });
      res.end(JSON.stringify({ echoed: body, path: req.url }));
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  stack = await startStack();
  remote = await startExtraEngine();
});

afterAll(async () => {
  await Promise.allSettled([stack?.stop(), remote?.stop()]);
  upstream?.close();
});

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('traffic proxy spec through the gateway', () => {
  it('proxies POST with JSON and form bodies and GET, then lists them in /api/requests and /api/responses', async () => {
    const g = stack.gatewayUrl;
    const posted = await fetch(`${g}/proxy?url=${encodeURIComponent(`${upstreamUrl}/orders?x=1`)}`, json({ item: 'book' }));
    expect(posted.status).toBe(201);
    expect(posted.headers.get('x-upstream')).toBe('yes');
    expect(await posted.json()).toEqual({ echoed: '{"item":"book"}', path: '/orders?x=1' });

    const form = await fetch(`${g}/proxy?url=${encodeURIComponent(`${upstreamUrl}/login`)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'user=ann&pass=x%26y',
    });
    expect(form.status).toBe(201);
    expect(seenUpstream.at(-1)).toMatchObject({ method: 'POST', body: 'user=ann&pass=x%26y', contentType: 'application/x-www-form-urlencoded' });

    const got = await fetch(`${g}/proxy?url=${encodeURIComponent(`${upstreamUrl}/ping`)}`);
    expect(got.status).toBe(201);

    const page = await eventually(async () => {
      const body = await (await fetch(`${g}/api/requests?method=POST&status=201`)).json();
      return body.totalElements >= 2 ? body : undefined;
    });
    expect(page).toMatchObject({ number: 0, size: 20 });
    expect(page.content.map((r: { url: string }) => r.url)).toEqual(expect.arrayContaining([`${upstreamUrl}/orders?x=1`, `${upstreamUrl}/login`]));
    expect(page.content.every((r: { method: string }) => r.method === 'POST')).toBe(true);

    // the GET's event may be stored after the two POSTs' (the gateway's workers publish independently)
    const responses = await eventually(async () => {
      const body = await (await fetch(`${g}/api/responses?status=201&size=50`)).json();
      return body.totalElements >= 3 ? body : undefined;
    });
    expect(responses.totalElements).toBeGreaterThanOrEqual(3);
    expect(responses.content.every((r: { status: number }) => r.status === 201)).toBe(true);

    const bad = await fetch(`${g}/api/requests?page=-1`);
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
  });
});

describe('mock hub spec through the gateway', () => {
  const g = () => `${stack.gatewayUrl}/hub/admin`;
  let serverId: string;

  it('registers a remote engine and makes it the active one', async () => {
    const added = await fetch(`${g()}/registry/servers`, json({ name: 'remote-1', url: remote.url }));
    expect(added.status).toBe(201);
    const server = await added.json();
    expect(server).toMatchObject({ name: 'remote-1', url: remote.url, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    serverId = server.id;

    const listed = await (await fetch(`${g()}/registry/servers`)).json();
    expect(listed.map((s: { id: string }) => s.id)).toEqual(expect.arrayContaining(['local', serverId]));

    const active = await fetch(`${g()}/registry/active`, json({ id: serverId }));
    expect(active.status).toBe(200);
    expect(await active.json()).toMatchObject({ id: serverId });
  });

  it('creates a stub on the active engine and one on local through X-Hub-Target-Server, each served by its engine', async () => {
    const onActive = await fetch(`${g()}/mappings`, json({ request: { method: 'GET', urlPath: '/where' }, response: { status: 200, jsonBody: { engine: 'remote' } } }));
    expect(onActive.status).toBe(201);
    const onLocal = await fetch(
      `${g()}/mappings`,
      json({ request: { method: 'GET', urlPath: '/where' }, response: { status: 200, jsonBody: { engine: 'local' } } }, { 'X-Hub-Target-Server': 'local' }),
    );
    expect(onLocal.status).toBe(201);

    expect(await (await fetch(`${remote.url}/where`)).json()).toEqual({ engine: 'remote' });
    expect(await (await fetch(`${stack.engineUrl}/where`)).json()).toEqual({ engine: 'local' });

    const activeStubs = await (await fetch(`${g()}/mappings`)).json();
    expect(activeStubs.mappings.map((m: { response: { jsonBody: unknown } }) => m.response.jsonBody)).toEqual([{ engine: 'remote' }]);
    const localStubs = await (await fetch(`${g()}/mappings`, { headers: { 'X-Hub-Target-Server': 'local' } })).json();
    expect(localStubs.mappings.map((m: { response: { jsonBody: unknown } }) => m.response.jsonBody)).toEqual([{ engine: 'local' }]);
  });

  it('answers an unknown target id with 404 and a malformed one with 400, never falling back', async () => {
    const unknown = await fetch(`${g()}/mappings`, { headers: { 'X-Hub-Target-Server': '00000000-0000-4000-8000-000000000000' } });
    expect(unknown.status).toBe(404);
    const malformed = await fetch(`${g()}/mappings`, { headers: { 'X-Hub-Target-Server': 'not-an-id' } });
    expect(malformed.status).toBe(400);
  });

  it('enables the proxy on the active engine, so unmatched calls reach the target, without touching other stubs', async () => {
    const enabled = await fetch(`${g()}/proxy/enable`, json({ targetUrl: upstreamUrl }));
    expect(enabled.status).toBe(200);
    const status = await (await fetch(`${g()}/proxy`)).json();
    expect(status).toMatchObject({ enabled: true, targetUrl: upstreamUrl });
    const proxied = await fetch(`${remote.url}/via-engine-proxy`);
    expect(proxied.status).toBe(201);
    expect(await proxied.json()).toMatchObject({ path: '/via-engine-proxy' });
    expect(await (await fetch(`${remote.url}/where`)).json()).toEqual({ engine: 'remote' });
  });

  it('records live traffic on the active engine and turns it into stubs on stop', async () => {
    const started = await fetch(`${g()}/recordings/start`, json({ targetUrl: upstreamUrl }));
    expect(started.status).toBe(200);
    const recorded = await fetch(`${remote.url}/recorded/thing`);
    expect(recorded.status).toBe(201);
    const stopped = await fetch(`${g()}/recordings/stop`, { method: 'POST' });
    expect(stopped.status).toBe(200);
    const body = await stopped.json();
    expect(body.mappings.some((m: { request: { url?: string; urlPath?: string } }) => (m.request.url ?? m.request.urlPath) === '/recorded/thing')).toBe(true);
  });

  it('reports hub health with the active engine under the engine component', async () => {
    const res = await fetch(`${stack.gatewayUrl}/actuator/health`);
    expect(res.status).toBe(200);
    const health = await res.json();
    expect(health.status).toBe('UP');
    expect(health.components.engine).toMatchObject({ status: 'UP', details: { id: serverId } });
  });

  it('makes local active again', async () => {
    const res = await fetch(`${g()}/registry/active`, json({ id: 'local' }));
    expect(await res.json()).toMatchObject({ id: 'local' });
  });
});
