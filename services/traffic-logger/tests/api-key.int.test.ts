import Redis from 'ioredis';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@mockyard/testkit';
import { loadLoggerConfig } from '../src/config';
import { countRows, makeEvent, publish, startLogger, waitFor, type RunningLogger } from './logger-fixture';

/** traffic.security.api-key: the read API, the live feed and deleting the log need the key; health does not. */
const KEY = 'traffic-test-key';

let database: TestDatabase;
let testRedis: TestRedis;
let logger: RunningLogger;

beforeAll(async () => {
  database = await createTestDatabase();
  testRedis = createTestRedis();
  logger = await startLogger(database, testRedis, { TRAFFIC_API_KEY: KEY });
  const redis = new Redis(testRedis.url);
  await publish(redis, testRedis.prefix, [makeEvent(), makeEvent()]);
  redis.disconnect();
  await waitFor(async () => (await countRows(logger.db)) === 2, 'two events stored');
});

afterAll(async () => {
  await logger?.close(500);
  await testRedis?.cleanup();
  await database?.drop();
});

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => fetch(`${logger.url}${path}`, { method, headers });

it.each(['/api/requests', '/api/responses', '/api/exchanges/har', '/api/stream'])('refuses GET %s without the key: 401 problem naming the header', async (path) => {
  const res = await get(path);
  expect(res.status).toBe(401);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.headers.get('www-authenticate')).toBe('ApiKey header="X-Api-Key", Bearer realm="mockyard"');
  expect((await res.json()).detail).toBe('API key required: send it in the X-Api-Key header (or Authorization: Bearer <key>)');
});

it('refuses a wrong key, in either header', async () => {
  for (const headers of [{ 'X-Api-Key': `${KEY}x` }, { Authorization: 'Bearer nope' }, { 'X-Api-Key': KEY.slice(0, -1) }]) {
    const res = await get('/api/requests', headers);
    expect(res.status).toBe(401);
    expect((await res.json()).detail).toBe('API key is not valid');
  }
});

it('answers with the key in X-Api-Key or as a bearer token, the live feed included', async () => {
  for (const headers of [{ 'X-Api-Key': KEY }, { Authorization: `Bearer ${KEY}` }]) {
    const res = await get('/api/requests', headers);
    expect(res.status).toBe(200);
    expect((await res.json()).totalElements).toBe(2);
  }
  const feed = await get('/api/stream', { 'X-Api-Key': KEY });
  expect(feed.status).toBe(200);
  expect(feed.headers.get('content-type')).toMatch(/^text\/event-stream/);
  await feed.body?.cancel();
});

it('deletes nothing for a request without the key', async () => {
  const res = await get('/api/exchanges', {}, 'DELETE');
  expect(res.status).toBe(401);
  expect(await countRows(logger.db)).toBe(2);
});

it('documents the key in the OpenAPI document: both ways of sending it, optional, and the 401 on every /api route', async () => {
  const doc = (await (await get('/openapi.json')).json()) as { components: { securitySchemes: Record<string, unknown> }; paths: Record<string, Record<string, { security?: unknown; responses: Record<string, unknown> }>> };
  expect(doc.components.securitySchemes).toEqual({ apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' }, bearer: { type: 'http', scheme: 'bearer' } });
  const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.values(ops).map((op) => ({ path, op })));
  expect(operations.filter(({ path }) => path.startsWith('/api/')).length).toBeGreaterThanOrEqual(7);
  for (const { path, op } of operations) {
    if (!path.startsWith('/api/')) continue;
    expect(op.security).toEqual([{ apiKey: [] }, { bearer: [] }, {}]);
    expect(op.responses['401']).toBeDefined();
  }
  // and every documented route refuses a request without the key, whatever its method
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (!path.startsWith('/api/')) continue;
    for (const method of Object.keys(ops)) {
      const res = await get(path.replace('{id}', '00000000-0000-4000-8000-000000000001'), {}, method.toUpperCase());
      expect([path, method, res.status]).toEqual([path, method, 401]);
    }
  }
  expect(await countRows(logger.db)).toBe(2);
});

it('keeps health and the OpenAPI document open for probes', async () => {
  expect((await get('/health/live')).status).toBe(200);
  expect((await get('/health/ready')).status).toBe(200);
  expect((await get('/openapi.json')).status).toBe(200);
});

it('refuses a blank key at start instead of running open', () => {
  expect(() => loadLoggerConfig({ env: { TRAFFIC_API_KEY: '  ' }, propertiesPath: '/dev/null' })).toThrow(/traffic\.security\.api-key.*must not be blank/s);
});
