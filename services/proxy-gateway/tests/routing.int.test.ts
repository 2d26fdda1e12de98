import http from 'node:http';
import net from 'node:net';
import { startServer, type StartedServer } from '@mockyard/service-kit';
import { createTestRedis, freePort, type TestRedis } from '@mockyard/testkit';
import { call, json } from './support/http-call';
import { startTestGateway } from './support/start-test-gateway';
import { TrafficStreamReader } from './support/traffic-stream';

/** Every request the stand-ins received, as "service url". */
const received: string[] = [];

/** A stand-in for an internal service: says who it is and what it received; serves an OpenAPI document. */
async function startService(name: string, paths: string[]): Promise<StartedServer> {
  return startServer(
    http.createServer((req, res) => {
      received.push(`${name} ${req.url}`);
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.setHeader('Content-Type', 'application/json');
        if (req.url === '/openapi.json') {
          res.end(JSON.stringify({ openapi: '3.1.0', paths: Object.fromEntries(paths.map((p) => [p, { get: { summary: `${name} ${p}` } }])) }));
          return;
        }
        res.end(JSON.stringify({ service: name, method: req.method, url: req.url, body: Buffer.concat(chunks).toString(), forwardedFor: req.headers['x-forwarded-for'] ?? null }));
      });
    }),
    0,
  );
}

describe('one public address: internal routes, docs, health and metrics', () => {
  let redis: TestRedis;
  let logger: StartedServer;
  let hub: StartedServer;
  let web: StartedServer;
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;

  beforeAll(async () => {
    redis = createTestRedis();
    [logger, hub, web] = await Promise.all([startService('logger', ['/api/requests', '/api/responses']), startService('hub', ['/hub/admin/servers']), startService('web', [])]);
    gateway = await startTestGateway({ REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, LOGGER_URL: logger.url, HUB_API_URL: hub.url, WEB_URL: web.url });
  });
  afterAll(async () => {
    await gateway.stop();
    await Promise.all([logger.close(100), hub.close(100), web.close(100)]);
    await redis.cleanup();
  });

  it.each([
    ['GET', '/api/requests?page=0&size=5&method=GET', 'logger'],
    ['GET', '/api/responses?status=200', 'logger'],
    ['GET', '/hub/admin/servers', 'hub'],
    ['GET', '/actuator/health', 'hub'],
    ['POST', '/mcp', 'hub'],
    ['GET', '/', 'web'],
    ['GET', '/requests/abc?tab=body', 'web'],
    ['GET', '/apiary', 'web'],
  ])('routes %s %s to the %s service with path and query intact', async (method, path, service) => {
    const res = await call(`${gateway.url}${path}`, { method, body: method === 'POST' ? '{"jsonrpc":"2.0"}' : undefined, headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(json(res)).toMatchObject({ service, method, url: path, ...(method === 'POST' ? { body: '{"jsonrpc":"2.0"}' } : {}), forwardedFor: expect.stringContaining('127.0.0.1') });
  });

  it("closes a kept-alive connection to a service 1 s before the service's Keep-Alive timeout hint", async () => {
    // A service announcing `Keep-Alive: timeout=2` closes connections idle for 2 s; sending on one as it does
    // fails with ECONNRESET (a 502). The gateway's pool closes them after 1 s idle: the request after a 1.3 s
    // pause goes on a new connection (on the old one, without the pool's timeout).
    let connections = 0;
    const service = http.createServer((_req, res) => res.end('{}'));
    service.keepAliveTimeout = 2000;
    service.on('connection', () => connections++);
    const started = await startServer(service, 0);
    const shortLived = await startTestGateway({ REDIS_URL: redis.url, REDIS_PREFIX: `${redis.prefix}:ka`, LOGGER_URL: started.url, HUB_API_URL: hub.url, WEB_URL: web.url });
    // the client asks for keep-alive, or the gateway would pass on its Connection: close
    const get = () => call(`${shortLived.url}/api/requests`, { headers: { Connection: 'keep-alive' } });
    try {
      expect((await get()).status).toBe(200);
      expect((await get()).status).toBe(200);
      expect(connections).toBe(1);
      await new Promise((r) => setTimeout(r, 1300));
      expect((await get()).status).toBe(200);
      expect(connections).toBe(2);
    } finally {
      await shortLived.stop();
      await started.close(100);
    }
  });

  it('serves the merged OpenAPI document and an HTML list of operations', async () => {
    const doc = json<{ paths: Record<string, Record<string, unknown>> }>(await call(`${gateway.url}/openapi.json`));
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/proxy', '/health/ready', '/metrics', '/api/requests', '/api/responses', '/hub/admin/servers']));
    expect(Object.keys(doc.paths['/proxy'])).toEqual(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);
    const page = await call(`${gateway.url}/docs`);
    expect(page.headers['content-type']).toContain('text/html');
    const html = page.body.toString();
    expect(html).toContain('<code>/proxy</code>');
    expect(html).toContain('<code>/api/requests</code>');
    expect(html).not.toMatch(/<script|https?:\/\/cdn/i);
  });

  it('reports Redis reachability and the capture counters at /health/ready and /metrics', async () => {
    const ready = await call(`${gateway.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(json(ready)).toMatchObject({
      status: 'UP',
      components: { redis: { status: 'UP' } },
      capture: { enabled: true, published: expect.any(Number), spooled: 0, replayed: 0, dropped: 0, buffered: expect.any(Number) },
    });
    const metrics = await call(`${gateway.url}/metrics`);
    expect(metrics.headers['content-type']).toContain('text/plain');
    expect(metrics.body.toString()).toMatch(/^mockyard_capture_events_total\{outcome="published"\} \d+$/m);
    expect(metrics.body.toString()).toContain('mockyard_gateway_redis_up 1');
  });

  it('answers a request id on /proxy responses', async () => {
    const res = await call(`${gateway.url}/proxy?url=${logger.url}/api/requests`, { headers: { 'X-Request-Id': 'trace-42' } });
    expect(res.headers['x-request-id']).toBe('trace-42');
  });

  it('refuses a WebSocket upgrade on /proxy with 501 problem+json', async () => {
    const res = await new Promise<http.IncomingMessage & { text?: string }>((resolve, reject) => {
      const req = http.request(`${gateway.url}/proxy?url=${web.url}/`, { headers: { Connection: 'Upgrade', Upgrade: 'websocket' } });
      req.on('response', (response) => {
        let text = '';
        response.on('data', (c: Buffer) => (text += c.toString()));
        response.on('end', () => resolve(Object.assign(response, { text })));
      });
      req.on('upgrade', () => reject(new Error('upgraded')));
      req.on('error', reject);
      req.end();
    });
    expect(res.statusCode).toBe(501);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(res.text!)).toMatchObject({ status: 501, title: 'Not implemented', detail: expect.stringContaining('WebSocket upgrades are not proxied through /proxy') });
  });

  it('serves requests offering another upgrade (curl --http2 sends h2c) as the plain requests they are, body and keep-alive included', async () => {
    const host = `127.0.0.1:${gateway.port}`;
    const socket = net.connect(gateway.port, '127.0.0.1');
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    const responses = (n: number) =>
      new Promise<string[]>((resolve, reject) => {
        const check = () => {
          const parts = text.split(/(?=HTTP\/1\.1 )/).filter((p) => /\r\n\r\n[\s\S]*\}$/.test(p));
          if (parts.length >= n) resolve(parts);
        };
        socket.on('data', check);
        socket.on('error', reject);
        socket.on('close', () => reject(new Error(`closed after: ${text}`)));
      });
    socket.write(
      `POST /proxy?url=${logger.url}/echo HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\nContent-Length: 5\r\n\r\nhello`,
    );
    const [first] = await responses(1);
    socket.write(`GET /api/requests?after=h2c HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: foo\r\n\r\n`);
    const [, second] = await responses(2);
    socket.destroy();
    expect(first).toMatch(/^HTTP\/1\.1 200 /);
    expect(JSON.parse(first.slice(first.indexOf('\r\n\r\n') + 4))).toMatchObject({ service: 'logger', method: 'POST', url: '/echo', body: 'hello' });
    expect(second).toMatch(/^HTTP\/1\.1 200 /);
    expect(JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4))).toMatchObject({ service: 'logger', method: 'GET', url: '/api/requests?after=h2c' });
  });

  it('answers 502 problem naming the internal service that is down', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const lonely = await startTestGateway({ REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, LOGGER_URL: dead, HUB_API_URL: dead, WEB_URL: dead, CAPTURE_ENABLED: 'false' });
    try {
      for (const [path, service] of [['/api/requests', 'traffic-logger'], ['/hub/admin/servers', 'hub-api'], ['/', 'web']]) {
        const res = await call(`${lonely.url}${path}`);
        expect(res.status).toBe(502);
        expect(res.headers['content-type']).toContain('application/problem+json');
        expect(json(res)).toMatchObject({ status: 502, service, detail: expect.stringContaining(service) });
      }
    } finally {
      await lonely.stop();
    }
  });

  it('forwards without publishing anything when capture.enabled is false', async () => {
    const prefix = `${redis.prefix}-nocapture`;
    const quiet = await startTestGateway({ REDIS_URL: redis.url, REDIS_PREFIX: prefix, CAPTURE_ENABLED: 'false' });
    const stream = new TrafficStreamReader(redis.url, prefix);
    try {
      expect((await call(`${quiet.url}/proxy?url=${logger.url}/api/x`)).status).toBe(200);
      expect(json(await call(`${quiet.url}/health/ready`))).toMatchObject({ status: 'UP', capture: { enabled: false } });
      await new Promise((r) => setTimeout(r, 200));
      expect(await stream.readAll()).toEqual([]);
    } finally {
      stream.close();
      await quiet.stop();
    }
  });

  describe('DNS rebinding: the Host header (server.allowed-hosts)', () => {
    /** The status of an upgrade request: 403 refused, 101 passed to the web app (which does not upgrade). */
    const upgradeStatus = (url: string, host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(url, { headers: { Host: host, Connection: 'Upgrade', Upgrade: 'websocket' } });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('upgrade', (_res, socket) => {
          socket.destroy();
          resolve(101);
        });
        req.on('error', reject);
        req.end();
      });

    it.each([['/api/requests'], ['/hub/admin/servers'], ['/mcp'], ['/'], ['/requests/abc'], ['/health/ready'], ['/proxy?url=LOGGER/api/requests']])(
      'refuses %s named as evil.example with 403 problem+json, before any service or target sees it',
      async (path) => {
        received.length = 0;
        const url = `${gateway.url}${path.replace('LOGGER', logger.url)}`;
        const res = await call(url, { headers: { Host: `evil.example:${gateway.port}` } });
        expect(res.status).toBe(403);
        expect(res.headers['content-type']).toContain('application/problem+json');
        expect(json(res)).toMatchObject({
          status: 403,
          title: 'Forbidden',
          host: `evil.example:${gateway.port}`,
          detail: expect.stringContaining('add it to server.allowed-hosts (ALLOWED_HOSTS)'),
        });
        expect(received).toEqual([]);
      },
    );

    it.each([['localhost'], ['127.0.0.1'], ['[::1]'], ['proxy-gateway'], ['mockyard.localhost']])('answers requests naming %s', async (name) => {
      const res = await call(`${gateway.url}/api/requests`, { headers: { Host: `${name}:${gateway.port}` } });
      expect(res.status).toBe(200);
      expect(json(res)).toMatchObject({ service: 'logger' });
    });

    it('refuses a protocol upgrade naming another host with 403, and passes one naming localhost on', async () => {
      expect(await upgradeStatus(`${gateway.url}/`, 'evil.example')).toBe(403);
      expect(await upgradeStatus(`${gateway.url}/`, `localhost:${gateway.port}`)).not.toBe(403);
    });

    it('answers the names in ALLOWED_HOSTS (and *.suffix), and every name with *', async () => {
      const listed = await startTestGateway({ REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, LOGGER_URL: logger.url, CAPTURE_ENABLED: 'false', ALLOWED_HOSTS: 'mockyard.team.example,*.qa.example' });
      const open = await startTestGateway({ REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, LOGGER_URL: logger.url, CAPTURE_ENABLED: 'false', ALLOWED_HOSTS: '*' });
      try {
        const status = async (url: string, host: string) => (await call(`${url}/api/requests`, { headers: { Host: host } })).status;
        expect(await status(listed.url, 'mockyard.team.example:8080')).toBe(200);
        expect(await status(listed.url, 'box1.qa.example')).toBe(200);
        expect(await status(listed.url, 'evil.example')).toBe(403);
        expect(await status(open.url, 'evil.example')).toBe(200);
      } finally {
        await Promise.all([listed.stop(), open.stop()]);
      }
    });

    it('refuses to start with an entry that is not a host name', async () => {
      await expect(startTestGateway({ REDIS_URL: redis.url, CAPTURE_ENABLED: 'false', ALLOWED_HOSTS: 'ok.example,http://bad.example' })).rejects.toThrow(
        /server\.allowed-hosts.*"http:\/\/bad\.example" is not a host name, \*\.suffix or \*/s,
      );
    });
  });
});
