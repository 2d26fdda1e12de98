import net from 'node:net';
import Redis from 'ioredis';
import pg from 'pg';
import { redisKeys } from '@mockyard/contracts';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@mockyard/testkit';
import { countRows, makeEvent, publish, startLogger, waitFor, type RunningLogger } from './logger-fixture';

jest.setTimeout(30000);

let database: TestDatabase;
let testRedis: TestRedis;
let redis: Redis;
let logger: RunningLogger | undefined;
let admin: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase();
  testRedis = createTestRedis();
  redis = new Redis(testRedis.url);
  admin = new pg.Client({ connectionString: process.env.MOCKYARD_TEST_ADMIN_DATABASE_URL /* set by the testkit's global setup */ });
  await admin.connect();
});

afterAll(async () => {
  await admin.query(`ALTER DATABASE "${database.name}" ALLOW_CONNECTIONS true`);
  await logger?.close(500);
  await admin.end();
  redis.disconnect();
  await testRedis.cleanup();
  await database.drop();
});

it('acks and dead-letters nothing while the database is unreachable (the read API answers 503), and stores everything once it is back', async () => {
  const keys = redisKeys(testRedis.prefix);
  const pending = async () => Number(((await redis.xpending(keys.trafficStream, keys.trafficConsumerGroup)) as [number])[0]);
  logger = await startLogger(database, testRedis);
  await publish(redis, testRedis.prefix, [makeEvent()]);
  await waitFor(async () => (await countRows(logger!.db)) === 1, 'the first event stored');

  // Take the database away from the logger: no new connections, existing ones cut.
  await admin.query(`ALTER DATABASE "${database.name}" ALLOW_CONNECTIONS false`);
  await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database.name]);
  const during = [makeEvent(), makeEvent(), makeEvent()];
  await publish(redis, testRedis.prefix, during);
  await waitFor(async () => logger!.consumerStats().failedBatches >= 1 && (await pending()) === 3, 'a failed batch left pending');
  const ready = await fetch(`${logger.url}/health/ready`);
  expect(ready.status).toBe(503);
  expect((await ready.json()).components.database.status).toBe('DOWN');
  // the read API says so too: a 503 a client can retry, not a 500
  const read = await fetch(`${logger.url}/api/requests`);
  expect(read.status).toBe(503);
  expect(read.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(read.headers.get('retry-after')).toBe('5');
  expect((await read.json()).detail).toMatch(/unavailable \((.*not currently accepting connections|57P01|Connection terminated.*)\)/);
  expect(await redis.xlen(keys.trafficDeadLetter)).toBe(0);

  await admin.query(`ALTER DATABASE "${database.name}" ALLOW_CONNECTIONS true`);
  await waitFor(async () => (await pending()) === 0, 'the pending batch stored and acked after the database came back', 30000);
  expect(await countRows(logger.db)).toBe(4);
  expect(await redis.xlen(keys.trafficDeadLetter)).toBe(0);
});

it('counts every entry the stream\'s cap trimmed during the outage, the pending batch and the unread ones, and stores the rest', async () => {
  const keys = redisKeys(testRedis.prefix);
  await logger?.close(500);
  await redis.del(keys.trafficStream, keys.trafficTrimmed);
  logger = await startLogger(database, testRedis, { TRAFFIC_CONSUMER_CONCURRENCY: '1' });
  await logger.db.prisma.$executeRawUnsafe('TRUNCATE exchanges');
  const pending = async () => Number(((await redis.xpending(keys.trafficStream, keys.trafficConsumerGroup)) as [number])[0]);
  await publish(redis, testRedis.prefix, [makeEvent()]);
  await waitFor(async () => (await countRows(logger!.db)) === 1, 'the first event stored');

  await admin.query(`ALTER DATABASE "${database.name}" ALLOW_CONNECTIONS false`);
  await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database.name]);
  await publish(redis, testRedis.prefix, [makeEvent(), makeEvent(), makeEvent()]);
  await waitFor(async () => logger!.consumerStats().failedBatches >= 1 && (await pending()) === 3, 'a failed batch left pending');
  // Six more while the batch waits for the database, and the cap keeps the newest two: the pending three and
  // four never read are gone.
  const kept = [makeEvent(), makeEvent()];
  await publish(redis, testRedis.prefix, [makeEvent(), makeEvent(), makeEvent(), makeEvent(), ...kept]);
  await redis.xtrim(keys.trafficStream, 'MAXLEN', 2);

  await admin.query(`ALTER DATABASE "${database.name}" ALLOW_CONNECTIONS true`);
  await waitFor(async () => (await pending()) === 0 && (await countRows(logger!.db)) === 3, 'the two kept entries stored', 30000);
  await waitFor(async () => logger!.consumerStats().trimmed === 7, 'seven trimmed entries counted');
  expect(await redis.get(keys.trafficTrimmed)).toBe('4');
  expect(await redis.xlen(keys.trafficDeadLetter)).toBe(0);
  const ids = (await logger.db.prisma.$queryRawUnsafe<{ id: string }[]>('SELECT id::text AS id FROM exchanges ORDER BY seq')).map((r) => r.id);
  expect(ids.slice(1)).toEqual(kept.map((e) => e.id));
});

it('answers 503 instead of hanging when the database drops packets (connect_timeout bounds the wait)', async () => {
  // a server that accepts the connection and never answers, as a blackholed database host
  const sockets = new Set<net.Socket>();
  const silent = net.createServer((socket) => {
    sockets.add(socket.resume());
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const blackholed = await startLogger(database, testRedis, {
    DATABASE_URL: `postgresql://postgres@127.0.0.1:${(silent.address() as net.AddressInfo).port}/x?connect_timeout=2`,
  });
  try {
    const read = await fetch(`${blackholed.url}/api/requests`, { signal: AbortSignal.timeout(15000) });
    expect(read.status).toBe(503);
    expect(read.headers.get('retry-after')).toBe('5');
    expect((await read.json()).detail).toMatch(/unavailable \(Connection terminated due to connection timeout\)/);
  } finally {
    await blackholed.close(500);
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  }
});
