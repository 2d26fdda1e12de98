import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDatabaseIfMissing } from '@mockyard/db';
import { requireTestEnv, TEST_ENV } from '@mockyard/testkit';

// db:migrate on a fresh PostgreSQL: the database the URL names is created when it does not exist.
const adminUrl = requireTestEnv(TEST_ENV.adminDatabaseUrl);

function urlOf(name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

describe('createDatabaseIfMissing (real PostgreSQL)', () => {
  // a name that needs quoting: upper case, a dash and a space
  const name = `Mockyard-t ${randomBytes(4).toString('hex')}`;
  afterAll(() => admin((c) => c.query(`DROP DATABASE IF EXISTS ${c.escapeIdentifier(name)} WITH (FORCE)`)));

  it('creates a missing database once, then finds it there', async () => {
    expect(await createDatabaseIfMissing(urlOf(name))).toBe(true);
    const { rows } = await admin((c) => c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]));
    expect(rows).toHaveLength(1);
    expect(await createDatabaseIfMissing(urlOf(name))).toBe(false);
  });

  it('throws other connection errors as they are (a server that is not there)', async () => {
    const url = new URL(urlOf(name));
    url.port = '1';
    await expect(createDatabaseIfMissing(url.toString())).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
