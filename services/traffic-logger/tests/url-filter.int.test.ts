import Redis from 'ioredis';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@mockyard/testkit';
import type { TrafficEvent } from '@mockyard/contracts';
import { countRows, makeEvent, publish, startLogger, waitFor, type RunningLogger } from './logger-fixture';

// The `url` substring filter is answered three ways (newest rows first, matches collected through the
// trigram index's rare part, the planner's plan; ExchangeRepo.listByUrl). Whatever way, the pages must be
// those of the in-memory twin: case-insensitive substring, newest first, exact totals on a small log.
let database: TestDatabase;
let testRedis: TestRedis;
let redis: Redis;
let logger: RunningLogger;

const events: TrafficEvent[] = [
  ...Array.from({ length: 240 }, (_, i) =>
    makeEvent({
      url: `http://host-${i % 4}.example.test/api/v1/resource/${i}?q=${i % 3}`,
      method: ['GET', 'POST', 'PUT'][i % 3],
      source: i % 2 ? 'forward' : 'proxy',
      durationMs: i,
      response: { status: [200, 404, 500, 201, 503][i % 5], headers: {} },
    }),
  ),
  makeEvent({ url: 'http://api.example.test/Special_Path/100%25/Resource/4242?X=1' }),
  makeEvent({ url: 'http://api.example.test/special-path/100/resource/4242?x=2' }),
];
const newestFirst = [...events].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
const matching = (s: string) => newestFirst.filter((e) => e.url.toLowerCase().includes(s.toLowerCase())).map((e) => e.id);

beforeAll(async () => {
  database = await createTestDatabase();
  testRedis = createTestRedis();
  redis = new Redis(testRedis.url);
  // Totals are exact below count-exact-limit unless the count overruns its time budget; a loaded test
  // machine must not turn them into estimates.
  logger = await startLogger(database, testRedis, { TRAFFIC_READ_COUNT_TIMEOUT_MS: '10000' });
  await publish(redis, testRedis.prefix, events);
  await waitFor(async () => (await countRows(logger.db)) === events.length, 'all events stored');
  // Column statistics, so the trigram sample tells the shared trigrams (`res`, `api`, …) from rare ones
  // and the index is asked for a part of the substring (before the first url query loads them).
  await logger.db.prisma.$executeRawUnsafe('ANALYZE exchanges');
}, 60000);

afterAll(async () => {
  await logger?.close();
  redis?.disconnect();
  await testRedis?.cleanup();
  await database?.drop();
});

describe('GET /api/requests?url=', () => {
  it.each([
    ['/api/v1/', 'common: every generated URL'],
    ['resource/1', 'common: 1, 10-19, 100-199'],
    ['HOST-3.example', 'a quarter, any case'],
    ['resource/23', 'rare: 23, 230-239'],
    ['resource/4242?x=', 'rare, two cases of one path'],
    ['resource/42', 'rare prefix of a rarer one'],
    ['special-path/100/RESOURCE/4242', 'rare part (4242) in two rows, the whole in one'],
    ['ial_path/100%/resource/4242?', 'the other one'],
    ['_path/100%', 'literal _ and %'],
    ['-path/100/', 'literal -, not _'],
    ['resource/999', 'no match'],
  ])('%s (%s): the same rows, newest first, and exact totals, on every page', async (substring) => {
    const expected = matching(substring);
    const size = 7;
    for (let page = 0; page * size <= expected.length; page++) {
      const res = await fetch(`${logger.url}/api/requests?url=${encodeURIComponent(substring)}&page=${page}&size=${size}`);
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.content.map((r: { id: string }) => r.id)).toEqual(expected.slice(page * size, page * size + size));
      expect(body).toMatchObject({ totalElements: expected.length, totalElementsExact: true, number: page, size, last: (page + 1) * size >= expected.length });
    }
  });

  // A substring with other filters: collected by the planner's choice when the substring is the commoner
  // side (the first seven here, but for RESOURCE/2 with POST and the host with no rows), else its matches
  // first with the other conditions checked on them (ExchangeRepo.collectByUrl); either way the pages must
  // be the in-memory twin's.
  it.each([
    ['requests', { url: 'resource/1', host: 'host-1.example.test' }, (e: TrafficEvent) => e.url.includes('resource/1') && e.url.includes('//host-1.example.test/')],
    ['requests', { url: 'RESOURCE/2', method: 'POST' }, (e: TrafficEvent) => e.url.includes('resource/2') && e.method === 'POST'],
    ['requests', { url: 'resource/1', statusClass: '5xx', source: 'forward' }, (e: TrafficEvent) => e.url.includes('resource/1') && (e.response?.status ?? 0) >= 500 && e.source === 'forward'],
    ['requests', { url: '/api/v1/', minDurationMs: '200' }, (e: TrafficEvent) => e.url.includes('/api/v1/') && e.durationMs >= 200],
    ['requests', { url: 'resource/1', from: events[100].startedAt, to: events[200].startedAt }, (e: TrafficEvent) => e.url.includes('resource/1') && e.startedAt >= events[100].startedAt && e.startedAt < events[200].startedAt],
    ['responses', { url: 'resource/2', status: '500' }, (e: TrafficEvent) => e.url.includes('resource/2') && e.response?.status === 500],
    ['requests', { url: 'resource/4242', host: 'nowhere.example.test' }, () => false],
    // a substring rarer than the other filters: its matches are collected first (collectByUrl)
    ['requests', { url: 'resource/23', host: 'host-3.example.test' }, (e: TrafficEvent) => e.url.includes('resource/23') && e.url.includes('//host-3.example.test/')],
    ['requests', { url: 'resource/23', statusClass: '5xx', source: 'forward' }, (e: TrafficEvent) => e.url.includes('resource/23') && (e.response?.status ?? 0) >= 500 && e.source === 'forward'],
    ['requests', { url: 'resource/23', minDurationMs: '100' }, (e: TrafficEvent) => e.url.includes('resource/23') && e.durationMs >= 100],
    ['requests', { url: 'resource/23', from: events[0].startedAt, to: events[235].startedAt }, (e: TrafficEvent) => e.url.includes('resource/23') && e.startedAt >= events[0].startedAt && e.startedAt < events[235].startedAt],
    ['responses', { url: 'resource/23', status: '500' }, (e: TrafficEvent) => e.url.includes('resource/23') && e.response?.status === 500],
  ] as const)('/api/%s?%j: the same rows, newest first, and exact totals, on every page', async (view, query, keep) => {
    const expected = newestFirst.filter(keep).map((e) => e.id);
    const size = 5;
    for (let page = 0; page * size <= expected.length; page++) {
      const params = new URLSearchParams({ ...query, page: String(page), size: String(size) });
      const res = await fetch(`${logger.url}/api/${view}?${params}`);
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.content.map((r: { id: string }) => r.id)).toEqual(expected.slice(page * size, page * size + size));
      expect(body).toMatchObject({ totalElements: expected.length, totalElementsExact: true, number: page });
    }
  });

  it('the HAR export uses the same substring filter', async () => {
    const har = await (await fetch(`${logger.url}/api/exchanges/har?url=resource%2F23`)).json();
    expect(har.log.entries.map((e: { request: { url: string } }) => e.request.url).sort()).toEqual(newestFirst.filter((e) => e.url.includes('resource/23')).map((e) => e.url).sort());
  });
});
