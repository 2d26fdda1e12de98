import Redis from 'ioredis';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@mockyard/testkit';
import { makeEvent, openSse, publish, startLogger, waitFor, type RunningLogger } from './logger-fixture';

let database: TestDatabase;
let testRedis: TestRedis;
let redis: Redis;
const running: RunningLogger[] = [];
const clients: ReturnType<typeof openSse>[] = [];

const start = async (env: Record<string, string> = {}) => {
  const logger = await startLogger(database, testRedis, env);
  running.push(logger);
  return logger;
};
const sse = (url: string, headers?: Record<string, string>) => {
  const client = openSse(url, headers);
  clients.push(client);
  return client;
};
const dataOf = (events: { data: string }[]) => events.map((e) => JSON.parse(e.data));

beforeEach(async () => {
  database = await createTestDatabase();
  testRedis = createTestRedis();
  redis = new Redis(testRedis.url);
});

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const logger of running.splice(0)) await logger.close(500);
  redis.disconnect();
  await testRedis.cleanup();
  await database.drop();
});

it('streams stored exchanges as Server-Sent Events whose id is the storage seq', async () => {
  const logger = await start();
  const feed = sse(`${logger.url}/api/stream`);
  await feed.next('ready', 1);
  expect(feed.status).toBe(200);
  expect(feed.contentType).toContain('text/event-stream');
  const events = [makeEvent(), makeEvent({ method: 'POST', response: { status: 503, headers: {} } }), makeEvent()];
  await publish(redis, testRedis.prefix, events);
  const received = await feed.next('exchange', 3);
  // Storage order: the instance's consumers may commit the three entries in any order.
  expect(dataOf(received).map((d) => d.id).sort()).toEqual(events.map((e) => e.id).sort());
  expect(dataOf(received).find((d) => d.id === events[1].id)).toMatchObject({ method: 'POST', status: 503, host: 'api.example.test', source: 'proxy', engineId: null, responseBodySize: 0 });
  // the feed's rows are read without their bodies, sizes kept
  expect(dataOf(received).find((d) => d.id === events[0].id)).toMatchObject({ requestBodySize: 0, responseBodySize: 12 });
  const ids = received.map((e) => Number(e.id));
  expect(ids).toEqual([...ids].sort((a, b) => a - b));
  expect(dataOf(received).map((d) => d.seq)).toEqual(ids);
});

it('sends only the exchanges matching the filter', async () => {
  const logger = await start();
  const feed = sse(`${logger.url}/api/stream?method=post&statusClass=5xx`);
  await feed.next('ready', 1);
  const wanted = makeEvent({ method: 'POST', response: { status: 502, headers: {} } });
  await publish(redis, testRedis.prefix, [makeEvent({ method: 'POST' }), makeEvent({ method: 'GET', response: { status: 500, headers: {} } }), wanted]);
  const all = sse(`${logger.url}/api/stream?lastEventId=0`);
  await all.next('exchange', 3);
  await feed.next('exchange', 1);
  expect(dataOf(feed.of('exchange')).map((d) => d.id)).toEqual([wanted.id]);
});

it('resumes after Last-Event-ID: replays what was stored meanwhile, then continues live, without duplicates', async () => {
  const logger = await start();
  const first = sse(`${logger.url}/api/stream`);
  await first.next('ready', 1);
  const before = [makeEvent(), makeEvent()];
  await publish(redis, testRedis.prefix, before);
  const seen = await first.next('exchange', 2);
  first.close();

  const missed = [makeEvent(), makeEvent(), makeEvent()];
  await publish(redis, testRedis.prefix, missed);
  await waitFor(async () => (await logger.repo.maxSeq()) >= Number(seen[1].id) + 3, 'the missed events stored');

  const resumed = sse(`${logger.url}/api/stream`, { 'Last-Event-ID': seen[1].id! });
  await resumed.next('ready', 1);
  const after = makeEvent();
  await publish(redis, testRedis.prefix, [after]);
  const got = await resumed.next('exchange', 4);
  const gotIds = dataOf(got).map((d) => d.id);
  expect(gotIds.slice(0, 3).sort()).toEqual(missed.map((e) => e.id).sort()); // in storage order, whichever consumer stored them
  expect(gotIds[3]).toBe(after.id);
  expect(resumed.events.findIndex((e) => e.event === 'ready')).toBe(3);
});

it('gives a client whose Last-Event-ID is from a log that is gone (a new database) this log from its start', async () => {
  const logger = await start();
  const events = [makeEvent(), makeEvent()];
  await publish(redis, testRedis.prefix, events);
  await waitFor(async () => (await logger.repo.maxSeq()) >= 2, 'two rows');
  // ids above every seq this database has handed out: the client saw them in an earlier database
  const feed = sse(`${logger.url}/api/stream`, { 'Last-Event-ID': '5000' });
  const [ready] = await feed.next('ready', 1);
  expect(dataOf(feed.of('exchange')).map((d) => d.id).sort()).toEqual(events.map((e) => e.id).sort());
  expect(JSON.parse(ready.data)).toEqual({ liveFromSeq: 2 });
});

it('keeps a Last-Event-ID above the newest row when the rows after it were deleted: later rows follow it', async () => {
  const logger = await start();
  await publish(redis, testRedis.prefix, [makeEvent(), makeEvent(), makeEvent()]);
  await waitFor(async () => (await logger.repo.maxSeq()) >= 3, 'three rows');
  expect((await fetch(`${logger.url}/api/exchanges`, { method: 'DELETE' })).status).toBe(200);
  const feed = sse(`${logger.url}/api/stream`, { 'Last-Event-ID': '3' });
  const [ready] = await feed.next('ready', 1);
  expect(JSON.parse(ready.data)).toEqual({ liveFromSeq: 3 });
  const after = makeEvent();
  await publish(redis, testRedis.prefix, [after]);
  const [got] = await feed.next('exchange', 1);
  expect(JSON.parse(got.data)).toMatchObject({ id: after.id, seq: 4 });
});

it('tells a resuming client when more was missed than the replay limit', async () => {
  const logger = await start({ TRAFFIC_STREAM_REPLAY_LIMIT: '2' });
  await publish(redis, testRedis.prefix, [makeEvent(), makeEvent(), makeEvent(), makeEvent()]);
  await waitFor(async () => (await logger.repo.maxSeq()) >= 4, 'four rows');
  const feed = sse(`${logger.url}/api/stream?lastEventId=0`);
  const [overflow] = await feed.next('overflow', 1);
  expect(JSON.parse(overflow.data)).toMatchObject({ skippedAfterSeq: 0, replayLimit: 2 });
  await feed.next('ready', 1);
  expect(feed.of('exchange')).toHaveLength(0);
});

it('delivers every row to the clients of each of two logger instances, whichever instance stored it', async () => {
  const a = await start({ TRAFFIC_CONSUMER_BATCH_SIZE: '5', TRAFFIC_STREAM_POLL_MS: '60000' });
  const b = await start({ TRAFFIC_CONSUMER_BATCH_SIZE: '5', TRAFFIC_STREAM_POLL_MS: '60000' });
  const feedA = sse(`${a.url}/api/stream`);
  const feedB = sse(`${b.url}/api/stream`);
  await Promise.all([feedA.next('ready', 1), feedB.next('ready', 1)]);
  const events = Array.from({ length: 60 }, () => makeEvent());
  await publish(redis, testRedis.prefix, events);
  for (const feed of [feedA, feedB]) {
    const got = await feed.next('exchange', 60);
    expect(new Set(dataOf(got).map((d) => d.id))).toEqual(new Set(events.map((e) => e.id)));
    const seqs = got.map((e) => Number(e.id));
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
  }
  await new Promise((r) => setTimeout(r, 200));
  expect(feedA.of('exchange')).toHaveLength(60);
  expect(feedB.of('exchange')).toHaveLength(60);
});

it('answers a malformed Last-Event-ID with 400', async () => {
  const logger = await start();
  const res = await fetch(`${logger.url}/api/stream`, { headers: { 'Last-Event-ID': 'yesterday' } });
  expect(res.status).toBe(400);
  expect(await res.json()).toMatchObject({ errors: [{ path: 'headers.last-event-id' }] });
});

it('forgets clients that disconnect', async () => {
  const logger = await start();
  const feeds = [sse(`${logger.url}/api/stream`), sse(`${logger.url}/api/stream?method=GET`)];
  await Promise.all(feeds.map((f) => f.next('ready', 1)));
  expect(logger.feeds.size).toBe(2);
  for (const f of feeds) f.close();
  await waitFor(async () => logger.feeds.size === 0, 'both feeds released');
});

it('answers HEAD with the feed\'s headers and ends, opening no feed', async () => {
  const logger = await start();
  const res = await fetch(`${logger.url}/api/stream?method=GET`, { method: 'HEAD', signal: AbortSignal.timeout(5000) });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  expect(logger.feeds.size).toBe(0);
  // its filters are still checked
  expect((await fetch(`${logger.url}/api/stream?method=FETCH`, { method: 'HEAD' })).status).toBe(400);
});
