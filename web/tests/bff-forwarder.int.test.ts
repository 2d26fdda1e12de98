import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as hubRoute from '../app/bff/hub/[...path]/route';
import * as sessionRoute from '../app/bff/session/route';
import { SESSION_KEY_COOKIE } from '../lib/server/forward-request';
import * as trafficRoute from '../app/bff/traffic/[...path]/route';

/**
 * The dashboard's server-side forwarders, driven as Next.js calls them (a Request and the route params),
 * against a real HTTP upstream on port 0 that records what reached it.
 */
type Seen = { method: string; url: string; headers: IncomingMessage['headers']; body: string };

let upstream: Server;
let upstreamUrl: string;
const seen: Seen[] = [];
/** Live feeds the upstream keeps open (as the logger does), ended after each test. */
const openFeeds: ServerResponse[] = [];
/** Keys the upstream refuses: the hub's header, and the traffic API's (where 'hub only key' is refused too). */
const refusesKey = (headers: IncomingMessage['headers']) =>
  headers['x-hub-api-key'] === 'wrong key' || headers['x-api-key'] === 'wrong key' || headers['x-api-key'] === 'hub only key';

beforeAll(async () => {
  upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (refusesKey(req.headers)) {
        res.writeHead(401, { 'content-type': 'application/problem+json' });
        res.end('{"status":401,"detail":"API key is not valid"}');
        return;
      }
      if (req.url?.startsWith('/api/stream')) {
        // the first event, then the connection stays open: only a forwarder that streams can pass it on
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write('id: 1\nevent: exchange\ndata: {"id":"a"}\n\n');
        openFeeds.push(res);
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
  delete process.env.TRAFFIC_API_KEY;
});

afterEach(() => {
  for (const feed of openFeeds.splice(0)) feed.end();
});

const params = (path: string[]) => ({ params: Promise.resolve({ path }) });
const saveKey = (apiKey: string) =>
  sessionRoute.POST(new Request('http://dash.test/bff/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiKey }) }));

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
    expect(seen[1]).toMatchObject({ method: 'GET', url: '/api/requests?size=1' });
    expect(seen[1].headers['x-api-key']).toBe('typed key');
    const cookie = saved.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/bff/);
    const response = await hubRoute.GET(new Request('http://dash.test/bff/hub/admin/registry/servers', { headers: { cookie: cookie.split(';')[0] } }), params(['admin', 'registry', 'servers']));
    expect(response.status).toBe(200);
    expect(seen[2].headers['x-hub-api-key']).toBe('typed key');
  });

  it('sends no key at all when none is configured or entered', async () => {
    await hubRoute.GET(new Request('http://dash.test/bff/hub/admin/proxy'), params(['admin', 'proxy']));
    expect(seen[0].headers['x-hub-api-key']).toBeUndefined();
  });

  it('passes the upstream status through (404 stays 404)', async () => {
    const response = await hubRoute.GET(new Request('http://dash.test/bff/hub/admin/mappings/missing'), params(['admin', 'mappings', 'missing']));
    expect(response.status).toBe(404);
  });

  it('refuses paths outside /hub/admin with a 404 problem, so it cannot be used to reach anything else', async () => {
    const response = await hubRoute.GET(new Request('http://dash.test/bff/hub/../../etc'), params(['..', 'etc']));
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect((await response.json()).detail).toMatch(/not a hub admin path/);
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
    expect(JSON.parse(text)).toEqual({ serverHeldKey: true, serverHeldTrafficKey: false, sessionKey: false });
    expect(text).not.toContain('server-secret');
  });

  it('tells whether the server holds the traffic API key, without revealing it', async () => {
    process.env.TRAFFIC_API_KEY = 'traffic-secret';
    const info = await sessionRoute.GET(new Request('http://dash.test/bff/session', { headers: { cookie: `${SESSION_KEY_COOKIE}=typed` } }));
    const text = await info.text();
    expect(JSON.parse(text)).toEqual({ serverHeldKey: false, serverHeldTrafficKey: true, sessionKey: true });
    expect(text).not.toContain('traffic-secret');
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

  it('refuses a key the traffic API does not accept with a 401 problem naming it, and stores nothing', async () => {
    const response = await saveKey('hub only key');
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({ status: 401, detail: 'the traffic API did not accept this API key', service: 'traffic' });
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(seen.map((s) => s.url)).toEqual(['/hub/admin/registry/servers', '/api/requests?size=1']);
  });

  it('does not check a typed key when the server holds both keys (the forwarders use the server\'s)', async () => {
    process.env.HUB_API_KEY = 'server-secret';
    process.env.TRAFFIC_API_KEY = 'traffic-secret';
    const response = await saveKey('wrong key');
    expect(response.status).toBe(204);
    expect(seen).toHaveLength(0);
  });

  it('checks a typed key only with the service whose key the server does not hold', async () => {
    process.env.HUB_API_KEY = 'server-secret';
    expect((await saveKey('hub only key')).status).toBe(401);
    expect(seen.map((s) => s.url)).toEqual(['/api/requests?size=1']);
    seen.length = 0;
    delete process.env.HUB_API_KEY;
    process.env.TRAFFIC_API_KEY = 'traffic-secret';
    expect((await saveKey('hub only key')).status).toBe(204);
    expect(seen.map((s) => s.url)).toEqual(['/hub/admin/registry/servers']);
  });

  it('stores a key the hub accepted while the traffic API cannot be reached (and the other way round)', async () => {
    process.env.TRAFFIC_API_URL = 'http://127.0.0.1:1';
    const hubOnly = await saveKey('typed key');
    expect(hubOnly.status).toBe(204);
    expect(hubOnly.headers.get('set-cookie')).toContain(SESSION_KEY_COOKIE);
    process.env.TRAFFIC_API_URL = upstreamUrl;
    process.env.HUB_URL = 'http://127.0.0.1:1';
    expect((await saveKey('typed key')).status).toBe(204);
  });

  it('still refuses a key one service refuses while the other cannot be reached', async () => {
    process.env.HUB_URL = 'http://127.0.0.1:1';
    const response = await saveKey('hub only key');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ service: 'traffic' });
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('answers 502 naming the upstream when no service could check the key, and stores nothing', async () => {
    process.env.HUB_URL = 'http://127.0.0.1:1';
    process.env.TRAFFIC_API_URL = 'http://127.0.0.1:1';
    const response = await saveKey('typed key');
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ service: 'hub', detail: expect.stringContaining('127.0.0.1:1') });
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('forgets the key by expiring the cookie', async () => {
    const response = sessionRoute.DELETE();
    expect(response.headers.get('set-cookie')).toMatch(/Max-Age=0/);
  });
});

describe('traffic API forwarder (/bff/traffic/*)', () => {
  it('forwards path and query to /api and adds the server-held TRAFFIC_API_KEY as X-Api-Key (never the hub key, never cookies)', async () => {
    process.env.TRAFFIC_API_KEY = 'traffic-secret';
    process.env.HUB_API_KEY = 'hub-secret';
    const response = await trafficRoute.GET(
      new Request('http://dash.test/bff/traffic/requests?page=0&size=100&method=POST', { headers: { accept: 'application/json', cookie: `${SESSION_KEY_COOKIE}=typed; other=1` } }),
      params(['requests']),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/api/requests?page=0&size=100&method=POST' });
    expect(seen[0].headers['x-api-key']).toBe('traffic-secret');
    expect(seen[0].headers['x-hub-api-key']).toBeUndefined();
    expect(seen[0].headers.cookie).toBeUndefined();
  });

  it('uses the key the user entered (session cookie) when the server holds none, and no key when there is none', async () => {
    await trafficRoute.GET(new Request('http://dash.test/bff/traffic/exchanges/ex-1', { headers: { cookie: `${SESSION_KEY_COOKIE}=${encodeURIComponent('typed key')}` } }), params(['exchanges', 'ex-1']));
    expect(seen[0]).toMatchObject({ url: '/api/exchanges/ex-1' });
    expect(seen[0].headers['x-api-key']).toBe('typed key');
    await trafficRoute.GET(new Request('http://dash.test/bff/traffic/exchanges/har'), params(['exchanges', 'har']));
    expect(seen[1]).toMatchObject({ url: '/api/exchanges/har' });
    expect(seen[1].headers['x-api-key']).toBeUndefined();
  });

  it('forwards DELETE /exchanges (delete all) with the key', async () => {
    process.env.TRAFFIC_API_KEY = 'traffic-secret';
    const response = await trafficRoute.DELETE(new Request('http://dash.test/bff/traffic/exchanges', { method: 'DELETE', headers: { origin: 'http://dash.test', host: 'dash.test' } }), params(['exchanges']));
    expect(response.status).toBe(200);
    expect(seen[0]).toMatchObject({ method: 'DELETE', url: '/api/exchanges' });
    expect(seen[0].headers['x-api-key']).toBe('traffic-secret');
  });

  it('answers 502 naming TRAFFIC_API_KEY when the traffic API refuses the key the server holds (no prompt: typing would not help)', async () => {
    process.env.TRAFFIC_API_KEY = 'wrong key';
    const response = await trafficRoute.GET(new Request('http://dash.test/bff/traffic/requests'), params(['requests']));
    expect(response.status).toBe(502);
    expect((await response.json()).detail).toBe("the traffic API refused the dashboard's TRAFFIC_API_KEY: set it to traffic-logger's traffic.security.api-key");
  });

  it('answers 502 naming HUB_API_KEY when the hub refuses the key the server holds', async () => {
    process.env.HUB_API_KEY = 'wrong key';
    const response = await hubRoute.GET(new Request('http://dash.test/bff/hub/admin/mappings'), params(['admin', 'mappings']));
    expect(response.status).toBe(502);
    expect((await response.json()).detail).toContain("refused the dashboard's HUB_API_KEY");
  });

  it('passes a refusal of the key through as the 401 it is (the page opens the key prompt)', async () => {
    const response = await trafficRoute.GET(new Request('http://dash.test/bff/traffic/requests', { headers: { cookie: `${SESSION_KEY_COOKIE}=${encodeURIComponent('wrong key')}` } }), params(['requests']));
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
  });

  it('streams the live feed through as it arrives, with Last-Event-ID and the key', async () => {
    process.env.TRAFFIC_API_KEY = 'traffic-secret';
    const response = await trafficRoute.GET(
      new Request('http://dash.test/bff/traffic/stream?method=GET', { headers: { 'last-event-id': '41', accept: 'text/event-stream' } }),
      params(['stream']),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    // the upstream keeps the feed open: the first event must arrive without waiting for an end that never comes
    const reader = response.body!.getReader();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const buffered = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the first event did not arrive: the feed is buffered')), 5_000)));
    const first = await Promise.race([reader.read(), buffered]).finally(() => clearTimeout(timer));
    expect(new TextDecoder().decode(first.value)).toContain('event: exchange');
    await reader.cancel();
    expect(seen[0]).toMatchObject({ url: '/api/stream?method=GET' });
    expect(seen[0].headers['last-event-id']).toBe('41');
    expect(seen[0].headers['x-api-key']).toBe('traffic-secret');
  });

  it.each([[['admin', 'registry']], [['exchanges', '..']], [['requests', 'x']], [['..', 'hub', 'admin']], [['health', 'ready']]])(
    'answers 404 problem+json for %j, which is not a traffic API path, and forwards nothing',
    async (path) => {
      process.env.TRAFFIC_API_KEY = 'traffic-secret';
      const response = await trafficRoute.GET(new Request(`http://dash.test/bff/traffic/${path.join('/')}`), params(path));
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(seen).toHaveLength(0);
    },
  );

  it.each([
    ['a cross-site fetch', 'GET', { 'sec-fetch-site': 'cross-site' }],
    ['another origin', 'GET', { origin: 'http://evil.test', host: 'dash.test' }],
    ['an opaque origin deleting the log', 'DELETE', { origin: 'null' }],
    ['a cross-site delete', 'DELETE', { 'sec-fetch-site': 'cross-site' }],
  ])('refuses %s with 403 and never forwards it with the key', async (_what, method, headers) => {
    process.env.TRAFFIC_API_KEY = 'traffic-secret';
    const call = method === 'GET' ? trafficRoute.GET : trafficRoute.DELETE;
    const response = await call(new Request('http://dash.test/bff/traffic/exchanges', { method, headers }), params(['exchanges']));
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(seen).toHaveLength(0);
  });

  it('answers 502 problem+json naming the upstream when the traffic API is down', async () => {
    process.env.TRAFFIC_API_URL = 'http://127.0.0.1:1';
    const response = await trafficRoute.GET(new Request('http://dash.test/bff/traffic/requests'), params(['requests']));
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect((await response.json()).detail).toContain('127.0.0.1:1');
  });
});
