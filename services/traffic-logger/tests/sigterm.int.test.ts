import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import Redis from 'ioredis';
import pg from 'pg';
import { redisKeys } from '@mockyard/contracts';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@mockyard/testkit';
import { countRows, makeEvent, publish, startLogger, waitFor, type RunningLogger } from './logger-fixture';

let database: TestDatabase;
let testRedis: TestRedis;
let redis: Redis;
let child: ChildProcess | undefined;
let second: RunningLogger | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  testRedis = createTestRedis();
  redis = new Redis(testRedis.url);
});

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await second?.close(500);
  redis.disconnect();
  await testRedis.cleanup();
  await database.drop();
});

/** The real main.ts as a process (compiled on the fly), so the signal goes through handleSignals. */
function spawnLogger(): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [join(__dirname, 'run-main.js')], {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        REDIS_URL: testRedis.url,
        REDIS_PREFIX: testRedis.prefix,
        LOGGER_PORT: '0',
        LOG_LEVEL: 'INFO',
        SERVER_SHUTDOWN_TIMEOUT_MS: '3000',
        TRAFFIC_CONSUMER_NAME: 'doomed',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('traffic-logger listening')) resolve(proc);
    });
    proc.stderr!.on('data', (d) => (out += d));
    proc.once('exit', (code) => reject(new Error(`logger exited before listening (${code}): ${out}`)));
  });
}

it('on SIGTERM mid-batch the process exits without acking the uncommitted batch, which a later instance stores once', async () => {
  const keys = redisKeys(testRedis.prefix);
  const pending = async () => Number(((await redis.xpending(keys.trafficStream, keys.trafficConsumerGroup)) as [number])[0]);
  const blocker = new pg.Client({ connectionString: database.url });
  await blocker.connect();
  try {
    await blocker.query('SELECT pg_advisory_lock(727281)'); // the batch's insert will wait on this
    child = await spawnLogger();
    const events = [makeEvent(), makeEvent(), makeEvent()];
    await publish(redis, testRedis.prefix, events);
    await waitFor(async () => (await pending()) === 3, 'the batch to be read by the process');

    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    await exited;

    expect(await pending()).toBe(3);
    await blocker.query('SELECT pg_advisory_unlock(727281)');
    const db = await database.db();
    expect(await countRows(db)).toBe(0); // the transaction died with the process: nothing committed

    second = await startLogger(database, testRedis, { TRAFFIC_CONSUMER_CLAIM_IDLE_MS: '300' });
    await waitFor(async () => (await pending()) === 0, 'the batch claimed and acked by a new instance');
    const ids = (await db.prisma.$queryRawUnsafe<{ id: string }[]>('SELECT id::text AS id FROM exchanges')).map((r) => r.id);
    expect(ids.sort()).toEqual(events.map((e) => e.id).sort());
  } finally {
    await blocker.end();
  }
});
