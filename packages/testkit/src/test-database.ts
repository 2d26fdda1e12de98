import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDbClient, type DbHandle } from '@mockyard/db';
import { requireTestEnv, TEST_ENV } from './test-env';

export interface TestDatabase {
  /** postgresql:// URL of this file's own database. */
  url: string;
  name: string;
  /** A Prisma client on it (created lazily, closed by drop()). */
  db(): Promise<DbHandle>;
  drop(): Promise<void>;
}

/** A fresh, migrated database for one test file, cloned from the run's template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = requireTestEnv(TEST_ENV.adminDatabaseUrl);
  const template = requireTestEnv(TEST_ENV.templateDatabase);
  const name = `mockyard_t_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let handle: Promise<DbHandle> | undefined;
  return {
    url: url.toString(),
    name,
    db: () => (handle ??= createDbClient({ kind: 'postgres', url: url.toString() }, { maxConnections: 5 })),
    drop: async () => {
      if (handle) await (await handle).close();
      await withAdmin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

async function withAdmin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
