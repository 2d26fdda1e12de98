import http from 'node:http';
import { Writable } from 'node:stream';
import { z } from 'zod';
import { ApiRegistry, createLogger, createServiceApp, createShutdown, finishApp, HttpProblem, MAX_QUERY_PARAMETERS, parseInput, startServer, type StartedServer } from '@mockyard/service-kit';

const lines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk, _enc, cb) {
    for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
    cb();
  },
});
const logger = createLogger({ service: 'kit-test', level: 'debug', destination: sink });
let dependencyUp = true;
let server: StartedServer;

beforeAll(async () => {
  const api = new ApiRegistry({ title: 'kit', version: '1' });
  const Query = z.object({ size: z.coerce.number().int().min(1).max(10) });
  api.add({ method: 'get', path: '/things/:id', summary: 'one thing', query: Query, params: z.object({ id: z.string() }), responses: { 200: { description: 'ok' } } });
  const app = createServiceApp({
    service: 'kit-test',
    logger,
    api,
    jsonLimit: '1kb',
    readiness: {
      database: async () => {
        if (!dependencyUp) throw new Error('connection refused');
      },
    },
  });
  app.get('/things/:id', (req, res) => {
    const q = parseInput(Query, req.query, 'query');
    res.json({ id: req.params.id, size: q.size });
  });
  app.post('/echo', (req, res) => {
    res.json(req.body);
  });
  app.get('/boom', () => {
    throw new Error('database password=hunter2 leaked?');
  });
  app.get('/gone', () => {
    throw HttpProblem.notFound('thing 7 does not exist');
  });
  server = await startServer(finishApp(app), 0);
});
afterAll(() => server.close());

describe('service kit app over real HTTP', () => {
  it('generates a request id, echoes it, and reuses a valid incoming X-Request-Id', async () => {
    const generated = await fetch(`${server.url}/things/1?size=2`);
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const reused = await fetch(`${server.url}/things/1?size=2`, { headers: { 'X-Request-Id': 'abc-123' } });
    expect(reused.headers.get('x-request-id')).toBe('abc-123');
    const rejected = await fetch(`${server.url}/things/1?size=2`, { headers: { 'X-Request-Id': 'bad id\twith spaces' } });
    expect(rejected.headers.get('x-request-id')).not.toContain('bad');
  });

  it('logs JSON lines with the service name and request id', async () => {
    await fetch(`${server.url}/things/9?size=1`, { headers: { 'X-Request-Id': 'log-check-1' } });
    const line = lines.find((l) => l.requestId === 'log-check-1');
    expect(line).toMatchObject({ service: 'kit-test', msg: 'request completed', status: 200, path: '/things/9' });
  });

  it('answers invalid query parameters with a 400 problem listing each path', async () => {
    const res = await fetch(`${server.url}/things/1?size=0`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const body = await res.json();
    expect(body).toMatchObject({ status: 400, title: 'Invalid request', instance: '/things/1?size=0' });
    expect(body.errors).toEqual([{ path: 'query.size', message: expect.any(String) }]);
    expect(body.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('refuses a query over the parameter bound with 400 instead of dropping the parameters past it', async () => {
    // the one parameter that matters comes last: cut silently, the request would have run without it
    const padded = `${'&'.repeat(MAX_QUERY_PARAMETERS)}size=0`;
    const res = await fetch(`${server.url}/things/1?${padded}`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect((await res.json()).detail).toBe(`the query has more than ${MAX_QUERY_PARAMETERS} parameters`);
    const within = await fetch(`${server.url}/things/1?${'&'.repeat(MAX_QUERY_PARAMETERS - 2)}size=3`);
    expect(await within.json()).toEqual({ id: '1', size: 3 });
  });

  it('takes writes with a JSON body or none, refusing forms and text (no CORS preflight guards them) with 415', async () => {
    const post = (headers: Record<string, string>, body?: string) => fetch(`${server.url}/echo`, { method: 'POST', headers, body });
    expect(await (await post({ 'content-type': 'application/json' }, '{"a":1}')).json()).toEqual({ a: 1 });
    expect(await (await post({ 'content-type': 'application/merge-patch+json; charset=utf-8' }, '{"b":2}')).json()).toEqual({ b: 2 });
    expect((await post({})).status).toBe(200);
    for (const [type, body] of [['application/x-www-form-urlencoded', 'name=x&url=http://evil.test'], ['text/plain', '{"a":1}'], ['multipart/form-data; boundary=b', '--b--']]) {
      const res = await post({ 'content-type': type }, body);
      expect(res.status).toBe(415);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(await res.json()).toMatchObject({ title: 'Unsupported media type', detail: `Content-Type must be application/json, not ${type}` });
    }
    // an empty form (a page's form without fields) declares its type all the same
    expect((await post({ 'content-type': 'application/x-www-form-urlencoded' }, '')).status).toBe(415);
  });

  it("refuses a browser's cross-site write with 403, and lets same-origin ones and reads through", async () => {
    const crossSite = await fetch(`${server.url}/echo`, { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    expect((await crossSite.json()).detail).toContain('Cross-site requests may not change anything');
    expect((await fetch(`${server.url}/echo`, { method: 'POST', headers: { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }, body: '{}' })).status).toBe(200);
    expect((await fetch(`${server.url}/things/1?size=2`, { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(200);
  });

  it('answers only requests naming an allowed Host (DNS rebinding), with a 403 problem naming the host and the setting', async () => {
    const get = (url: string, host: string) =>
      new Promise<{ status: number; type: string; body: Record<string, unknown> }>((resolve, reject) => {
        http
          .get(url, { headers: { Host: host } }, (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c));
            res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body: JSON.parse(text) }));
          })
          .on('error', reject);
      });
    const refused = await get(`${server.url}/things/1?size=2`, 'rebound.evil.example');
    expect(refused).toMatchObject({ status: 403, type: expect.stringContaining('application/problem+json') });
    expect(refused.body).toMatchObject({ title: 'Forbidden', host: 'rebound.evil.example', detail: expect.stringContaining('add it to server.allowed-hosts (ALLOWED_HOSTS)') });
    expect((await get(`${server.url}/health/live`, 'rebound.evil.example')).status).toBe(403);
    for (const host of ['localhost', '127.0.0.1:1', 'hub-api:8082']) expect((await get(`${server.url}/things/1?size=2`, host)).status).toBe(200);

    const listed = createServiceApp({ service: 'kit-hosts', logger, allowedHosts: ['mockyard.team.example'] });
    listed.get('/x', (_req, res) => {
      res.json({ ok: true });
    });
    const listedServer = await startServer(finishApp(listed), 0);
    try {
      expect((await get(`${listedServer.url}/x`, 'mockyard.team.example:8080')).status).toBe(200);
      expect((await get(`${listedServer.url}/x`, 'other.team.example')).status).toBe(403);
    } finally {
      await listedServer.close();
    }
  });

  it('answers malformed and oversized JSON with 400 and 413 problems', async () => {
    const bad = await fetch(`${server.url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).detail).toMatch(/Malformed JSON/);
    const big = await fetch(`${server.url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ a: 'x'.repeat(5000) }) });
    expect(big.status).toBe(413);
  });

  it('hides unexpected errors behind a generic 500 and logs them in full', async () => {
    const res = await fetch(`${server.url}/boom`, { headers: { 'X-Request-Id': 'boom-1' } });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('hunter2');
    expect(lines.some((l) => l.requestId === 'boom-1' && l.level === 'error')).toBe(true);
  });

  it('answers unknown routes and thrown HttpProblems as problems', async () => {
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
    const gone = await fetch(`${server.url}/gone`);
    expect(await gone.json()).toMatchObject({ status: 404, detail: 'thing 7 does not exist' });
  });

  it('reports liveness always and readiness from the real dependency checks', async () => {
    expect((await fetch(`${server.url}/health/live`)).status).toBe(200);
    dependencyUp = true;
    const up = await fetch(`${server.url}/health/ready`);
    expect(up.status).toBe(200);
    expect(await up.json()).toMatchObject({ status: 'UP', components: { database: { status: 'UP' } } });
    dependencyUp = false;
    const down = await fetch(`${server.url}/health/ready`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ status: 'DOWN', components: { database: { status: 'DOWN', error: 'connection refused' } } });
    dependencyUp = true;
  });

  it('serves an OpenAPI 3.1 document generated from the route schemas', async () => {
    const doc = await (await fetch(`${server.url}/openapi.json`)).json();
    expect(doc.openapi).toBe('3.1.0');
    const op = doc.paths['/things/{id}'].get;
    expect(op.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`).sort()).toEqual(['path:id', 'query:size']);
  });
});

describe('createShutdown', () => {
  it('runs steps once in reverse order and resolves 0', async () => {
    const order: string[] = [];
    const shutdown = createShutdown(logger, 1000);
    shutdown.add('first', () => order.push('first'));
    shutdown.add('second', async () => order.push('second'));
    const [a, b] = await Promise.all([shutdown.run('SIGTERM'), shutdown.run('SIGINT')]);
    expect([a, b]).toEqual([0, 0]);
    expect(order).toEqual(['second', 'first']);
  });

  it('gives up after its time limit with exit code 1', async () => {
    const shutdown = createShutdown(logger, 50);
    shutdown.add('stuck', () => new Promise(() => undefined));
    expect(await shutdown.run('SIGTERM')).toBe(1);
  });

  it('drains in-flight requests before the server closes', async () => {
    const http = await import('node:http');
    let release!: () => void;
    const slow = await startServer(
      http.createServer((_req, res) => {
        release = () => res.end('done');
      }),
      0,
    );
    const pending = fetch(slow.url).then((r) => r.text());
    await new Promise((r) => setTimeout(r, 50));
    const closed = slow.close(2000);
    release();
    expect(await pending).toBe('done');
    await closed;
    expect(slow.server.listening).toBe(false);
  });
});
