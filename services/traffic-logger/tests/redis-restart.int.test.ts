import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import Redis from 'ioredis';
import { createTestDatabase, freePort, type TestDatabase, type TestRedis } from '@mockyard/testkit';
import { countRows, makeEvent, openSse, publish, startLogger, waitFor, type RunningLogger } from './logger-fixture';

let database: TestDatabase;
let port: number;
let server: ChildProcess | undefined;
let logger: RunningLogger | undefined;
let feed: ReturnType<typeof openSse> | undefined;

/** A private Redis this test may stop and restart (never the shared one). */
async function startRedis(): Promise<ChildProcess> {
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  await waitFor(async () => {
    try {
      return execFileSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() === 'PONG';
    } catch {
      return false;
    }
  }, 'the private redis-server to answer');
  return proc;
}

async function stopRedis(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return;
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGTERM');
  await exited;
}

beforeAll(async () => {
  database = await createTestDatabase();
  port = await freePort();
  server = await startRedis();
});

afterAll(async () => {
  feed?.close();
  await logger?.close(500);
  if (server) await stopRedis(server);
  await database.drop();
});

it('keeps consuming and feeding live clients after Redis restarts empty', async () => {
  const testRedis: TestRedis = { url: `redis://127.0.0.1:${port}`, prefix: 'restart-test', cleanup: async () => {} };
  logger = await startLogger(database, testRedis, { TRAFFIC_STREAM_POLL_MS: '200' });
  feed = openSse(`${logger.url}/api/stream`);
  await feed.next('ready', 1);
  const client = new Redis(testRedis.url, { maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  try {
    const before = makeEvent();
    await publish(client, testRedis.prefix, [before]);
    await feed.next('exchange', 1);

    await stopRedis(server!);
    server = await startRedis(); // empty: the stream and the consumer group are gone
    const after = makeEvent();
    await waitFor(async () => {
      try {
        await publish(client, testRedis.prefix, [after]);
        return true;
      } catch {
        return false;
      }
    }, 'publishing to the restarted Redis');

    await waitFor(async () => (await countRows(logger!.db)) === 2, 'the event published after the restart stored', 30000);
    const got = await feed.next('exchange', 2, 30000);
    expect(got.map((e) => JSON.parse(e.data).id)).toEqual([before.id, after.id]);
  } finally {
    client.disconnect();
  }
});
