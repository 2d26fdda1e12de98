import Redis from 'ioredis';
import pg from 'pg';
import { ensureConsumerGroup } from '@mockyard/bus';
import { redisKeys } from '@mockyard/contracts';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@mockyard/testkit';
import { countRows, makeEvent, publish, startLogger, waitFor, type RunningLogger } from './logger-fixture';

let database: TestDatabase;
let testRedis: TestRedis;
let redis: Redis;
let keys: ReturnType<typeof redisKeys>;
const running: RunningLogger[] = [];

const start = async (env: Record<string, string> = {}) => {
  const logger = await startLogger(database, testRedis, { TRAFFIC_CONSUMER_CLAIM_IDLE_MS: '300', ...env });
  running.push(logger);
  return logger;
};
const pendingCount = async () => Number(((await redis.xpending(keys.trafficStream, keys.trafficConsumerGroup)) as [number])[0]);
/** The dead-letter stream's entries, each as an object of its fields. */
const deadLetters = async () =>
  (await redis.xrange(keys.trafficDeadLetter, '-', '+')).map(([, fields]) => Object.fromEntries(fields.reduce<string[][]>((acc, v, i) => (i % 2 ? acc : [...acc, [v, fields[i + 1]]]), [])));
const rowIds = async (logger: RunningLogger) =>
  (await logger.db.prisma.$queryRawUnsafe<{ id: string }[]>('SELECT id::text AS id FROM exchanges ORDER BY seq')).map((r) => r.id);

beforeEach(async () => {
  database = await createTestDatabase();
  testRedis = createTestRedis();
  redis = new Redis(testRedis.url);
  keys = redisKeys(testRedis.prefix);
});

afterEach(async () => {
  for (const logger of running.splice(0)) await logger.close(500);
  redis.disconnect();
  await testRedis.cleanup();
  await database.drop();
});

it('stores a redelivered event once and acks both deliveries', async () => {
  const logger = await start();
  const event = makeEvent();
  await publish(redis, testRedis.prefix, [event, makeEvent(), event]);
  await waitFor(async () => logger.consumerStats().acked === 3, 'three acks');
  expect(await countRows(logger.db)).toBe(2);
  expect(await pendingCount()).toBe(0);
});

it('claims a stale pending entry of a dead consumer and stores it', async () => {
  await ensureConsumerGroup(redis, keys.trafficStream, keys.trafficConsumerGroup);
  const event = makeEvent();
  await publish(redis, testRedis.prefix, [event]);
  // A consumer reads the entry and dies without acking it.
  await redis.xreadgroup('GROUP', keys.trafficConsumerGroup, 'dead-consumer', 'COUNT', 10, 'STREAMS', keys.trafficStream, '>');
  expect(await pendingCount()).toBe(1);

  const logger = await start();
  await waitFor(async () => (await pendingCount()) === 0, 'the stale entry to be claimed and acked');
  expect(await rowIds(logger)).toEqual([event.id]);
  expect(logger.consumerStats().claimed).toBe(1);
});

it('moves undecodable entries to the dead-letter stream with the reason and keeps consuming', async () => {
  const logger = await start();
  const good = makeEvent();
  await publish(redis, testRedis.prefix, ['{not json', JSON.stringify({ ...makeEvent(), id: 'not-a-uuid' }), good]);
  await redis.xadd(keys.trafficStream, '*', 'payload', 'wrong field');
  await waitFor(async () => (await redis.xlen(keys.trafficDeadLetter)) === 3, 'three dead letters');
  await waitFor(async () => (await countRows(logger.db)) === 1, 'the good event stored');
  const dead = await deadLetters();
  // The instance's consumers share the entries, so the dead letters need not keep the stream's order.
  expect(dead).toHaveLength(3);
  expect(dead).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ event: '{not json', reason: expect.stringContaining('invalid JSON') }),
      expect.objectContaining({ reason: expect.stringContaining('not a TrafficEvent: id:') }),
      expect.objectContaining({ event: '', reason: 'missing field "event" (fields: payload)' }),
    ]),
  );
  expect(await rowIds(logger)).toEqual([good.id]);
  expect(await pendingCount()).toBe(0);
});

it('stores the events of an entry that carries a batch, dead-letters its bad ones with their index, and acks the entry', async () => {
  const logger = await start();
  const good = [makeEvent(), makeEvent()];
  const refused = makeEvent({ source: 'tunnel', method: 'CONNECT', url: 'db.example.test:5432', tunnel: { host: 'db.example.test', port: 2 ** 40, bytesUp: 1, bytesDown: 2 }, response: undefined });
  const entryId = await redis.xadd(keys.trafficStream, '*', 'event', JSON.stringify(good[0]), 'event', '{not json', 'event', JSON.stringify(refused), 'event', JSON.stringify(good[1]));
  await waitFor(async () => (await pendingCount()) === 0 && (await redis.xlen(keys.trafficDeadLetter)) === 2, 'the entry settled');
  expect((await rowIds(logger)).sort()).toEqual(good.map((e) => e.id).sort());
  const dead = await deadLetters();
  expect(dead).toEqual([
    expect.objectContaining({ event: '{not json', entryId, index: '1', reason: expect.stringContaining('invalid JSON') }),
    expect.objectContaining({ event: JSON.stringify(refused), entryId, index: '2', reason: expect.stringMatching(/database rejected the row: .*out of range/) }),
  ]);
  expect(logger.consumerStats()).toMatchObject({ acked: 2, deadLettered: 2 });
});

it('dead-letters a row the database refuses and stores the rest of its batch', async () => {
  const logger = await start({ TRAFFIC_CONSUMER_BATCH_MAX_WAIT_MS: '200' });
  const refused = makeEvent({ source: 'tunnel', method: 'CONNECT', url: 'db.example.test:5432', tunnel: { host: 'db.example.test', port: 2 ** 40, bytesUp: 1, bytesDown: 2 }, response: undefined });
  const fine = [makeEvent(), makeEvent()];
  await publish(redis, testRedis.prefix, [fine[0], refused, fine[1]]);
  await waitFor(async () => (await redis.xlen(keys.trafficDeadLetter)) === 1, 'one dead letter');
  const [[, fields]] = await redis.xrange(keys.trafficDeadLetter, '-', '+');
  expect(fields[fields.indexOf('reason') + 1]).toMatch(/database rejected the row: .*out of range/);
  await waitFor(async () => (await pendingCount()) === 0, 'everything acked');
  expect((await rowIds(logger)).sort()).toEqual(fine.map((e) => e.id).sort());
});

it('acks nothing that was not committed when stopped mid-batch, and a later instance stores the batch once', async () => {
  const first = await start();
  // Hold the insert lock so the batch waits inside its transaction.
  const blocker = new pg.Client({ connectionString: database.url });
  await blocker.connect();
  try {
    await blocker.query('SELECT pg_advisory_lock(727281)');
    const events = [makeEvent(), makeEvent(), makeEvent()];
    await publish(redis, testRedis.prefix, events);
    await waitFor(async () => (await pendingCount()) === 3, 'the batch to be read');
    await first.stop(300); // the shutdown path SIGTERM runs: stop reading, abandon the batch after the grace

    expect(await pendingCount()).toBe(3);
    expect(await countRows(first.db)).toBe(0);

    await blocker.query('SELECT pg_advisory_unlock(727281)');
    // The abandoned transaction may still commit; its entries stay unacked all the same.
    await new Promise((r) => setTimeout(r, 300));
    expect(await pendingCount()).toBe(3);

    const second = await start();
    await waitFor(async () => (await pendingCount()) === 0, 'the second instance to claim and ack the batch');
    expect((await rowIds(second)).sort()).toEqual(events.map((e) => e.id).sort());
  } finally {
    await blocker.end();
  }
});

it('recreates its consumer group when the stream was deleted, and keeps storing', async () => {
  const logger = await start();
  await publish(redis, testRedis.prefix, [makeEvent()]);
  await waitFor(async () => (await countRows(logger.db)) === 1, 'the first event stored');
  await redis.set(keys.trafficTrimmed, '7');
  await redis.del(keys.trafficStream);
  const later = makeEvent();
  await publish(redis, testRedis.prefix, [later]);
  await waitFor(async () => (await rowIds(logger)).includes(later.id), 'the event published after the deletion stored');
  expect(await pendingCount()).toBe(0);
  // a new stream's group counts its trimmed entries from 0
  expect(await redis.get(keys.trafficTrimmed)).toBeNull();
});

it('counts the entries the stream\'s cap trimmed before any logger read them, once for the group, and reports them in /health/ready', async () => {
  const group = keys.trafficConsumerGroup;
  await ensureConsumerGroup(redis, keys.trafficStream, group);
  const ids = await publish(redis, testRedis.prefix, Array.from({ length: 10 }, () => makeEvent()));
  // Loggers stored the first three entries; then, every logger down, the cap trimmed five they had not read.
  await redis.xreadgroup('GROUP', group, 'gone', 'COUNT', 3, 'STREAMS', keys.trafficStream, '>');
  await redis.xack(keys.trafficStream, group, ...ids.slice(0, 3));
  await redis.xtrim(keys.trafficStream, 'MAXLEN', 2);
  const trimmedBy = (loggers: RunningLogger[]) => loggers.reduce((n, l) => n + l.consumerStats().trimmed, 0);

  const first = await Promise.all([start(), start()]);
  await waitFor(async () => (await countRows(first[0].db)) === 2, 'the two entries left stored');
  await waitFor(async () => trimmedBy(first) === 5, 'five trimmed entries counted');
  expect(await redis.get(keys.trafficTrimmed)).toBe('5');
  const ready = (await (await fetch(`${first[0].url}/health/ready`)).json()) as { status: string; consumer: Record<string, number> };
  expect(ready.status).toBe('UP');
  expect(ready.consumer).toEqual(first[0].consumerStats());

  // Down again, four more entries, three of them trimmed: the next two loggers count those three, together.
  for (const logger of first) await logger.close(500);
  await publish(redis, testRedis.prefix, Array.from({ length: 4 }, () => makeEvent()));
  await redis.xtrim(keys.trafficStream, 'MAXLEN', 1);
  const second = await Promise.all([start(), start()]);
  await waitFor(async () => (await countRows(second[0].db)) === 3, 'the entry left stored');
  await waitFor(async () => trimmedBy(second) === 3, 'three more trimmed entries counted');
  expect(await redis.get(keys.trafficTrimmed)).toBe('8');
  // caught up: a check now finds nothing new (the lag minus the stream's length is below the count)
  await new Promise((r) => setTimeout(r, 400));
  expect(trimmedBy(second)).toBe(3);
});

it('leaves trimmed entries a live consumer is still storing alone: neither claimed away nor counted as lost', async () => {
  const group = keys.trafficConsumerGroup;
  await ensureConsumerGroup(redis, keys.trafficStream, group);
  const events = [makeEvent(), makeEvent(), makeEvent(), makeEvent()];
  await publish(redis, testRedis.prefix, events);
  // Another instance read three just now and is inserting them; the cap trims them under it.
  await redis.xreadgroup('GROUP', group, 'busy', 'COUNT', 3, 'STREAMS', keys.trafficStream, '>');
  await redis.xtrim(keys.trafficStream, 'MAXLEN', 1);
  const logger = await start({ TRAFFIC_CONSUMER_CLAIM_IDLE_MS: '60000' });
  await waitFor(async () => (await rowIds(logger)).includes(events[3].id), 'the entry left stored');
  expect(logger.consumerStats()).toMatchObject({ trimmed: 0, claimed: 0 });
  const [pending] = (await redis.xpending(keys.trafficStream, group)) as [number];
  expect(pending).toBe(3);
});

it('counts pending entries the stream\'s cap trimmed before their retry, claimed or its own, and dead-letters nothing', async () => {
  const group = keys.trafficConsumerGroup;
  await ensureConsumerGroup(redis, keys.trafficStream, group);
  await publish(redis, testRedis.prefix, [makeEvent(), makeEvent(), makeEvent(), makeEvent(), makeEvent()]);
  // Three read by a consumer that died, two by the logger about to restart under its name; then all trimmed.
  await redis.xreadgroup('GROUP', group, 'dead-consumer', 'COUNT', 3, 'STREAMS', keys.trafficStream, '>');
  await redis.xreadgroup('GROUP', group, 'restarting', 'COUNT', 2, 'STREAMS', keys.trafficStream, '>');
  await redis.xtrim(keys.trafficStream, 'MAXLEN', 0);
  expect(await pendingCount()).toBe(5);

  const logger = await start({ TRAFFIC_CONSUMER_NAME: 'restarting', TRAFFIC_CONSUMER_CONCURRENCY: '1' });
  await waitFor(async () => (await pendingCount()) === 0 && logger.consumerStats().trimmed === 5, 'five trimmed pending entries counted and gone');
  expect(await redis.xlen(keys.trafficDeadLetter)).toBe(0);
  expect(logger.consumerStats()).toMatchObject({ acked: 0, deadLettered: 0, trimmed: 5 });
  expect(await countRows(logger.db)).toBe(0);
});
