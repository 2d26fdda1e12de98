import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as hubRoute from '../app/bff/hub/[...path]/route';
import * as sessionRoute from '../app/bff/session/route';
import * as trafficRoute from '../app/api/[...path]/route';

/**
 * The dashboard's server-side forwarders, driven as Next.js calls them (a Request and the route params),
 * against a real HTTP upstream on port 0 that records what reached it.
 */
type Seen = { method: string; url: string; headers: IncomingMessage['headers']; body: string };

let upstream: Server;
let upstreamUrl: string;
const seen: Seen[] = [];

beforeAll(async () => {
  upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (req.url?.startsWith('/api/stream')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end('id: 1\nevent: exchange\ndata: {"id":"a"}\n\n');
        return;
      }
      if (req.headers['x-hub-api-key'] === 'wrong key') {
        res.writeHead(401, { 'content-type': 'application/problem+json' });
        res.end('{"status":401,"detail":"API key is not valid"}');
        return;
      }
      res.writeHead(req.url?.includes('missing') ? 404 : 200, { 'content-type': 'application/json', 'set-cookie': 'upstream=1' });
      res.end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => upstream.close(resolve));
});

beforeEach(() => {
  seen.length = 0;
  process.env.HUB_URL = upstreamUrl;
  process.env.TRAFFIC_API_URL = upstreamUrl;
  delete process.env.HUB_API_KEY;
});

const params = (path: string[]) => ({ params: Promise.resolve({ path }) });

describe('hub forwarder (/bff/hub/*)', () => {
  it('forwards method, path, query, body and the target header, and adds the server-held API key', async () => {
    process.env.HUB_API_KEY = 'server-secret';
    const request = new Request('http://dash.test/bff/hub/admin/mappings?limit=5', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-target-server': 'local', cookie: 'other=1' },
      body: '{"request":{}}',
    });
    const response = await hubRoute.POST(request, params(['admin', 'mappings']));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/hub/admin/mappings?limit=5', body: '{"request":{}}' });
    expect(seen[0].headers).toMatchObject({ 'x-hub-api-key': 'server-secret', 'x-hub-target-server': 'local', 'content-type': 'application/json' });
    expect(seen[0].headers.cookie).toBeUndefined();
  });

  it('uses the key the user entered (session cookie) when the server holds none', async () => {
    const saved = await sessionRoute.POST(new Request('http://dash.test/bff/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiKey: 'typed key' }) }));
    expect(saved.status).toBe(204);
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/hub/admin/registry/servers' });
    expect(seen[0].headers['x-hub-api-key']).toBe('typed key');
    const cookie = saved.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/bff/);
    const response = await hubRoute.GET(new Request('http://dash.test/bff/hub/admin/registry/servers', { headers: { cookie: cookie.split(';')[0] } }), params(['admin', 'registry', 'servers']));
    expect(response.status).toBe(200);
    expect(seen[1].headers['x-hub-api-key']).toBe('typed key');
  });

  it('sends no key at all when none is configured or entered', async () => {
    await hubRoute.GET(new Request('http://dash.test/bff/hub/admin/proxy'), params(['admin', 'proxy']));
    expect(seen[0].headers['x-hub-api-key']).toBeUndefined();
  });

  it('passes the upstream status through (404 stays 404)', async () => {
    const response = await hubRoute.GET(new Request('http://dash.test/bff/hub/admin/mappings/missing'), params(['admin', 'mappings', 'missing']));
    expect(response.status).toBe(404);
  });

  it('refuses paths outside /hub/admin, so it cannot be used to reach anything else', async () => {
    const response = await hubRoute.GET(new Request('http://dash.test/bff/hub/../../etc'), params(['..', 'etc']));
    expect(response.status).toBe(404);
    expect(seen).toHaveLength(0);
  });

  it.each([
    ['a cross-site fetch', { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' }],
    ['another origin', { origin: 'http://evil.test', host: 'dash.test', 'content-type': 'application/json' }],
    ['an opaque origin', { origin: 'null', 'content-type': 'application/json' }],
    ['a form post (no CORS preflight)', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['a text/plain post', { 'content-type': 'text/plain' }],
  ])('refuses %s with 403 and never forwards it with the key', async (_what, headers) => {
    process.env.HUB_API_KEY = 'server-secret';
    const response = await hubRoute.POST(
      new Request('http://dash.test/bff/hub/admin/registry/active', { method: 'POST', headers, body: headers['content-type']?.includes('json') ? '{"id":"local"}' : 'id=local' }),
      params(['admin', 'registry', 'active']),
    );
    expect(response.status).toBe(403);
    expect(seen).toHaveLength(0);
  });

  it("lets this dashboard's own pages through (same origin, same-origin fetch metadata)", async () => {
    const response = await hubRoute.POST(
      new Request('http://dash.test/bff/hub/admin/registry/active', {
        method: 'POST', headers: { origin: 'http://dash.test', host: 'dash.test', 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }, body: '{"id":"local"}',
      }),
      params(['admin', 'registry', 'active']),
    );
    expect(response.status).toBe(200);
    expect(seen).toHaveLength(1);
  });

  it('refuses a cross-site page storing a key in the session', async () => {
    const response = await sessionRoute.POST(new Request('http://dash.test/bff/session', { method: 'POST', headers: { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' }, body: '{"apiKey":"x"}' }));
    expect(response.status).toBe(403);
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('answers 502 problem+json naming the upstream when the hub is down', async () => {
    process.env.HUB_URL = 'http://127.0.0.1:1';
    const response = await hubRoute.GET(new Request('http://dash.test/bff/hub/admin/mappings'), params(['admin', 'mappings']));
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect((await response.json()).detail).toContain('127.0.0.1:1');
  });
});

describe('session key endpoint (/bff/session)', () => {
  it('tells whether a key is held by the server or the session, without revealing it', async () => {
    process.env.HUB_API_KEY = 'server-secret';
    const info = await sessionRoute.GET(new Request('http://dash.test/bff/session'));
    const text = await info.text();
    expect(JSON.parse(text)).toEqual({ serverHeldKey: true, sessionKey: false });
    expect(text).not.toContain('server-secret');
  });

  it('refuses a blank key with a 400 problem naming apiKey', async () => {
    const response = await sessionRoute.POST(new Request('http://dash.test/bff/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"apiKey":"  "}' }));
    expect(response.status).toBe(400);
    expect((await response.json()).errors[0].path).toBe('apiKey');
  });

  it('refuses a key the hub does not accept with a 401 problem, and stores nothing', async () => {
    const response = await sessionRoute.POST(new Request('http://dash.test/bff/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"apiKey":"wrong key"}' }));
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect((await response.json()).detail).toBe('the hub did not accept this API key');
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('does not check a typed key when the server holds one (the forwarder uses the server\'s)', async () => {
    process.env.HUB_API_KEY = 'server-secret';
    const response = await sessionRoute.POST(new Request('http://dash.test/bff/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"apiKey":"wrong key"}' }));
    expect(response.status).toBe(204);
    expect(seen).toHaveLength(0);
  });

  it('answers 502 naming the hub when the key cannot be checked, and stores nothing', async () => {
    process.env.HUB_URL = 'http://127.0.0.1:1';
    const response = await sessionRoute.POST(new Request('http://dash.test/bff/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"apiKey":"typed key"}' }));
    expect(response.status).toBe(502);
    expect((await response.json()).detail).toContain('127.0.0.1:1');
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('forgets the key by expiring the cookie', async () => {
    const response = sessionRoute.DELETE();
    expect(response.headers.get('set-cookie')).toMatch(/Max-Age=0/);
  });
});

describe('traffic API forwarder (/api/*, only when running without the gateway)', () => {
  it('streams the live feed through with Last-Event-ID', async () => {
    const response = await trafficRoute.GET(
      new Request('http://dash.test/api/stream?method=GET', { headers: { 'last-event-id': '41', accept: 'text/event-stream' } }),
      params(['stream']),
    );
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toContain('event: exchange');
    expect(seen[0]).toMatchObject({ url: '/api/stream?method=GET' });
    expect(seen[0].headers['last-event-id']).toBe('41');
  });
});
