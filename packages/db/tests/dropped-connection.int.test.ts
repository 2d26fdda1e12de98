// A connection the server ends while a driver transaction holds it between two statements (PostgreSQL
// shutting down, an administrator's pg_terminate_backend): the error arrives when no query is running, on
// a client the pool has handed out. Without a listener of its own that 'error' event crashed the process
// (found by the PostgreSQL outage fault test: the logger died on "terminating connection due to
// administrator command").
import { createDbClient, type DbHandle } from '@mockyard/db';
import { createTestDatabase, type TestDatabase } from '@mockyard/testkit';

let t: TestDatabase;
let db: DbHandle;
beforeAll(async () => {
  t = await createTestDatabase();
  db = await createDbClient({ kind: 'postgres', url: t.url }, { maxConnections: 2 });
});
afterAll(async () => {
  await db.close();
  await t.drop();
});

/** Resolves once the pooled connection `pid` has gone from pg_stat_activity. */
async function waitGone(pid: number): Promise<void> {
  while ((await db.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).length > 0) {
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a driver transaction whose connection the server ends between statements', () => {
  it("rejects with the server's error, rolls nothing forward and leaves the pool serving", async () => {
    await db.query('CREATE TABLE dropped_tx (id int)');
    let pid = 0;
    const outcome = db.transaction(async (query) => {
      [{ pid }] = await query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await query('INSERT INTO dropped_tx VALUES (1)');
      // Ended from another pooled connection while this one runs no statement.
      await db.query('SELECT pg_terminate_backend($1)', [pid]);
      await waitGone(pid);
      await new Promise((r) => setTimeout(r, 50)); // the termination notice has been read by now
      return query('INSERT INTO dropped_tx VALUES (2)');
    });
    await expect(outcome).rejects.toMatchObject({ code: '57P01', message: 'terminating connection due to administrator command' });

    expect(await db.query('SELECT id FROM dropped_tx')).toEqual([]);
    // The broken connection was not handed back: both pooled connections work.
    const pids = await Promise.all([0, 1].map(() => db.transaction(async (query) => (await query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))[0].pid)));
    expect(pids).not.toContain(pid);
    expect(await db.transaction((query) => query('INSERT INTO dropped_tx VALUES (3) RETURNING id'))).toEqual([{ id: 3 }]);
  });
});
