import Redis from 'ioredis';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@mockyard/testkit';
import { makeEvent, publish, startLogger, waitFor, type RunningLogger } from './logger-fixture';

let database: TestDatabase;
let testRedis: TestRedis;
let redis: Redis;
let logger: RunningLogger;

const get = async (path: string, init?: RequestInit) => {
  const res = await fetch(`${logger.url}${path}`, init);
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', headers: res.headers, body: text ? JSON.parse(text) : undefined };
};

const events = [
  makeEvent({ method: 'GET', url: 'http://api.example.test/orders?page=1' }),
  makeEvent({ method: 'POST', url: 'http://api.example.test/orders', requestId: 'req-42', request: { headers: { 'content-type': 'application/json' }, body: { encoding: 'utf8', data: '{"sku":"A1"}', size: 12, truncated: false, contentType: 'application/json' } }, response: { status: 201, statusMessage: 'Created', headers: { location: '/orders/9' } } }),
  makeEvent({ method: 'POST', url: 'http://shop.example.test/cart', response: { status: 500, statusMessage: 'Internal Server Error', headers: {} }, durationMs: 900 }),
  makeEvent({ method: 'DELETE', url: 'http://api.example.test/orders/3', response: { status: 404, headers: {} } }),
  makeEvent({ method: 'GET', url: 'http://down.example.test/', response: undefined, error: 'connect ECONNREFUSED 127.0.0.1:9' }),
  makeEvent({ method: 'PUT', url: 'http://api.example.test/orders/4', source: 'forward', response: { status: 200, headers: {} } }),
];

beforeAll(async () => {
  database = await createTestDatabase();
  testRedis = createTestRedis();
  redis = new Redis(testRedis.url);
  logger = await startLogger(database, testRedis);
  await publish(redis, testRedis.prefix, events);
  await waitFor(async () => (await get('/api/requests')).body.totalElements === events.length, 'all events stored');
});

afterAll(async () => {
  await logger?.close();
  redis?.disconnect();
  await testRedis?.cleanup();
  await database?.drop();
});

describe('GET /api/requests', () => {
  it('lists logged requests newest first in a Spring-style page with the defaults page 0 and size 20', async () => {
    const { status, body } = await get('/api/requests');
    expect(status).toBe(200);
    expect(body).toMatchObject({ totalElements: 6, totalPages: 1, number: 0, size: 20, numberOfElements: 6, first: true, last: true, empty: false, totalElementsExact: true });
    expect(body.content.map((r: { id: string }) => r.id)).toEqual(events.map((e) => e.id).reverse());
    expect(body.content[4]).toMatchObject({ id: events[1].id, method: 'POST', host: 'api.example.test', path: '/orders', status: 201, body: { data: '{"sku":"A1"}' } });
  });

  it('pages with page and size', async () => {
    const { body } = await get('/api/requests?page=1&size=4');
    expect(body).toMatchObject({ totalElements: 6, totalPages: 2, number: 1, size: 4, numberOfElements: 2, first: false, last: true });
    expect(body.content.map((r: { id: string }) => r.id)).toEqual([events[1].id, events[0].id]);
  });

  it('filters by method (any case) and by the response status, and combines them', async () => {
    expect((await get('/api/requests?method=post')).body.content.map((r: { id: string }) => r.id)).toEqual([events[2].id, events[1].id]);
    expect((await get('/api/requests?status=200')).body.content.map((r: { id: string }) => r.id)).toEqual([events[5].id, events[0].id]);
    const both = await get('/api/requests?method=POST&status=500');
    expect(both.body.content.map((r: { id: string }) => r.id)).toEqual([events[2].id]);
    expect(both.body.totalElements).toBe(1);
  });

  it('filters by host, URL substring, status class, duration, source and time range', async () => {
    const ids = async (q: string) => (await get(`/api/requests?${q}`)).body.content.map((r: { id: string }) => r.id);
    expect(await ids('host=SHOP.example.test')).toEqual([events[2].id]);
    expect(await ids('url=ORDERS%3Fpage')).toEqual([events[0].id]);
    expect(await ids('statusClass=4xx')).toEqual([events[3].id]);
    expect(await ids('minDurationMs=500')).toEqual([events[2].id]);
    expect(await ids('source=forward')).toEqual([events[5].id]);
    expect(await ids(`from=${events[3].startedAt}&to=${events[5].startedAt}`)).toEqual([events[4].id, events[3].id]);
    expect(await ids('url=%25')).toEqual([]);
  });

  it.each([
    ['page=-1', 'query.page', 'page must be between 0 and 1000000'],
    ['size=0', 'query.size', 'size must be between 1 and 200'],
    ['size=201', 'query.size', 'size must be between 1 and 200'],
    ['status=abc', 'query.status', 'status must be an integer'],
    ['method=FETCH', 'query.method', 'method must be an HTTP method'],
    // PostgreSQL's text cannot hold a NUL: refused here, not a 500 from the database
    ['host=a%00b', 'query.host', 'host must not contain a NUL character'],
    ['url=resource%00', 'query.url', 'url must not contain a NUL character'],
  ])('answers %s with a 400 problem naming the parameter', async (query, path, message) => {
    const { status, type, body } = await get(`/api/requests?${query}`);
    expect(status).toBe(400);
    expect(type).toContain('application/problem+json');
    expect(body).toMatchObject({ status: 400, type: 'https://mockyard.dev/problems/validation', errors: [{ path, message: expect.stringContaining(message) }] });
  });
});

describe('GET /api/responses', () => {
  it('lists responses of exchanges that got one, newest first, filterable by status', async () => {
    const { body } = await get('/api/responses');
    expect(body.totalElements).toBe(5);
    expect(body.content.map((r: { id: string }) => r.id)).not.toContain(events[4].id);
    expect(body.content[3]).toMatchObject({ id: events[1].id, requestId: events[1].id, status: 201, statusMessage: 'Created', headers: { location: '/orders/9' } });
    const filtered = await get('/api/responses?status=404');
    expect(filtered.body.content.map((r: { status: number }) => r.status)).toEqual([404]);
  });

  it('rejects a non-numeric status with 400', async () => {
    expect((await get('/api/responses?status=ok')).status).toBe(400);
  });
});

describe('/api/exchanges', () => {
  it('returns one exchange with request and response together', async () => {
    const { status, body } = await get(`/api/exchanges/${events[1].id}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: events[1].id,
      correlationId: 'req-42',
      request: { method: 'POST', url: 'http://api.example.test/orders', body: { encoding: 'utf8', data: '{"sku":"A1"}' } },
      response: { status: 201, headers: { location: '/orders/9' } },
      error: null,
    });
  });

  it('lists summaries with view=summary: the full view\'s rows and totals, as the live feed sends them (sizes, engine, no headers or bodies)', async () => {
    for (const query of ['size=4', 'size=2&page=1', 'url=orders', 'method=POST&url=example']) {
      const full = (await get(`/api/exchanges?${query}`)).body;
      const summary = (await get(`/api/exchanges?${query}&view=summary`)).body;
      expect(summary.totalElements).toBe(full.totalElements);
      expect(summary.content.map((s: { id: string }) => s.id)).toEqual(full.content.map((x: { id: string }) => x.id));
      for (const [i, x] of full.content.entries()) {
        expect(summary.content[i]).toEqual({
          id: x.id,
          seq: x.seq,
          startedAt: x.startedAt,
          durationMs: x.durationMs,
          source: x.source,
          engineId: x.engineId,
          method: x.request.method,
          url: x.request.url,
          host: x.request.host,
          path: x.request.path,
          status: x.response?.status ?? null,
          error: x.error,
          requestBodySize: x.request.body?.size ?? 0,
          responseBodySize: x.response?.body?.size ?? 0,
          matchedStubId: x.matchedStubId,
        });
      }
    }
    expect((await get(`/api/exchanges?view=summary&method=POST&url=orders`)).body.content[0]).toMatchObject({ id: events[1].id, requestBodySize: 12 });
    const bad = await get('/api/exchanges?view=rows');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ path: 'query.view', message: 'view must be full or summary' })]);
  });

  it('shows an exchange without response with its error', async () => {
    const { body } = await get(`/api/exchanges/${events[4].id}`);
    expect(body).toMatchObject({ response: null, error: 'connect ECONNREFUSED 127.0.0.1:9' });
  });

  it('answers an unknown id with 404 and a malformed one with 400', async () => {
    expect((await get('/api/exchanges/7d0b1f8e-1111-4222-8333-944455556666')).status).toBe(404);
    expect((await get('/api/exchanges/not-a-uuid')).status).toBe(400);
  });

  it('exports the filtered set as HAR 1.2', async () => {
    const res = await fetch(`${logger.url}/api/exchanges/har?host=api.example.test`);
    expect(res.headers.get('content-disposition')).toContain('.har');
    const har = await res.json();
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries).toHaveLength(4);
    const post = har.log.entries.find((e: { _id: string }) => e._id === events[1].id);
    expect(post).toMatchObject({ request: { method: 'POST', postData: { mimeType: 'application/json', text: '{"sku":"A1"}' } }, response: { status: 201, redirectURL: '/orders/9' } });
    const limited = await (await fetch(`${logger.url}/api/exchanges/har?limit=2`)).json();
    expect(limited.log.entries.map((e: { _id: string }) => e._id)).toEqual([events[5].id, events[4].id]);
  });

  it('publishes every route in the OpenAPI document', async () => {
    const { body } = await get('/openapi.json');
    expect(Object.keys(body.paths)).toEqual(expect.arrayContaining(['/api/requests', '/api/responses', '/api/exchanges', '/api/exchanges/{id}', '/api/exchanges/har', '/api/stream']));
  });

  it('deletes matching exchanges, then one by id, then the rest', async () => {
    // a filter past the query's parameter bound is refused, never dropped (which would delete everything)
    const padded = await get(`/api/exchanges?${'&'.repeat(1000)}method=POST`, { method: 'DELETE' });
    expect(padded.status).toBe(400);
    expect(padded.body.detail).toBe('the query has more than 1000 parameters');
    // a day that does not exist is refused, not rolled over into a wider range
    expect((await get('/api/exchanges?to=2026-02-30', { method: 'DELETE' })).status).toBe(400);
    expect((await get('/api/exchanges?host=%00', { method: 'DELETE' })).status).toBe(400);
    expect((await get('/api/requests')).body.totalElements).toBe(events.length);
    expect((await get('/api/exchanges?statusClass=5xx', { method: 'DELETE' })).body).toEqual({ deleted: 1 });
    expect((await get(`/api/exchanges/${events[2].id}`)).status).toBe(404);
    expect((await get(`/api/exchanges/${events[0].id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await get(`/api/exchanges/${events[0].id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await get('/api/exchanges', { method: 'DELETE' })).body).toEqual({ deleted: 4 });
    expect((await get('/api/requests')).body).toMatchObject({ totalElements: 0, empty: true });
  });
});

describe('readiness', () => {
  it('reports database and redis up', async () => {
    const { status, body } = await get('/health/ready');
    expect(status).toBe(200);
    expect(body.components).toEqual({ database: { status: 'UP' }, redis: { status: 'UP' } });
  });
});
