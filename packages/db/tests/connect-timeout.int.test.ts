// A database that drops packets instead of refusing them: connecting is bounded by connect_timeout, and
// so is waiting for a pooled connection, so callers get an error (a 503 in the services) instead of a hang.
import net from 'node:net';
import { createDbClient, type DbHandle } from '@mockyard/db';
import { createTestDatabase, type TestDatabase } from '@mockyard/testkit';

jest.setTimeout(20_000);

let silent: net.Server;
const sockets = new Set<net.Socket>();
let database: TestDatabase;

beforeAll(async () => {
  // accepts the TCP connection, reads the startup message and never answers: a blackholed server
  silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.resume(); // reads (and drops) what the client sends, so the client's FIN is seen
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  database = await createTestDatabase();
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
  await database.drop();
});

it('gives up connecting to a server that never answers after connect_timeout, through the driver and through Prisma', async () => {
  const port = (silent.address() as net.AddressInfo).port;
  const db = await createDbClient({ kind: 'postgres', url: `postgresql://postgres@127.0.0.1:${port}/x?connect_timeout=2` });
  try {
    const started = Date.now();
    await expect(db.ping()).rejects.toThrow(/^Connection terminated due to connection timeout$/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900); // it waited the timeout: not a refusal
    await expect(db.prisma.$queryRaw`SELECT 1`).rejects.toThrow(/Connection terminated due to connection timeout/);
    // the timed-out connections were closed, not left open
    for (let i = 0; i < 50 && sockets.size > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sockets.size).toBe(0);
  } finally {
    await db.close();
  }
});

it('bounds the wait for a pooled connection by the same timeout, and the pool serves again once one is free', async () => {
  const url = new URL(database.url);
  url.searchParams.set('connect_timeout', '2');
  let db: DbHandle | undefined = await createDbClient({ kind: 'postgres', url: url.toString() }, { maxConnections: 1 });
  try {
    // the pool's only connection is held by a transaction for 4 s
    const held = db.transaction(async (query) => query('SELECT pg_sleep(4) AS slept'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(db.query('SELECT 1 AS one')).rejects.toThrow(/^timeout exceeded when trying to connect$/);
    await expect(held).resolves.toEqual([{ slept: '' }]);
    await expect(db.query('SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
  } finally {
    await db.close();
    db = undefined;
  }
});
