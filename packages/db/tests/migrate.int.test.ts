import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createDbClient, listMigrations, migrate } from '@mockyard/db';
import { createTestDatabase, type TestDatabase } from '@mockyard/testkit';

let t: TestDatabase;
let client: pg.Client;
beforeAll(async () => {
  t = await createTestDatabase();
  client = new pg.Client({ connectionString: t.url });
  await client.connect();
});
afterAll(async () => {
  await client.end();
  await t.drop();
});

function migrationsDir(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
  for (const [name, sql] of Object.entries(files)) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'migration.sql'), sql);
  }
  return dir;
}

describe('offline migration runner on real PostgreSQL', () => {
  it('recorded every committed migration in _prisma_migrations as prisma migrate deploy does', async () => {
    const { rows } = await client.query('SELECT migration_name, checksum, finished_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name');
    expect(rows.map((r) => r.migration_name)).toEqual(listMigrations().map((m) => m.name));
    for (const [i, r] of rows.entries()) {
      expect(r.checksum).toBe(listMigrations()[i].checksum);
      expect(r.finished_at).toBeInstanceOf(Date);
      expect(r.applied_steps_count).toBe(1);
    }
  });

  it('is a no-op when the database is up to date', async () => {
    expect(await migrate(client)).toEqual({ applied: [] });
  });

  it('applies new migrations in name order, once', async () => {
    const dir = migrationsDir({
      '20990101000000_a': 'CREATE TABLE mig_a (id int);',
      '20990101000001_b': 'ALTER TABLE mig_a ADD COLUMN name text;',
    });
    expect(await migrate(client, dir)).toEqual({ applied: ['20990101000000_a', '20990101000001_b'] });
    expect(await migrate(client, dir)).toEqual({ applied: [] });
    await client.query("INSERT INTO mig_a VALUES (1, 'x')");
  });

  it('rolls back a failing migration entirely and refuses to continue past it', async () => {
    const dir = migrationsDir({ '20990102000000_bad': 'CREATE TABLE mig_half (id int); SELECT nonsense_function();' });
    await expect(migrate(client, dir)).rejects.toThrow(/20990102000000_bad failed/);
    const { rowCount } = await client.query("SELECT 1 FROM pg_tables WHERE tablename = 'mig_half'");
    expect(rowCount).toBe(0);
  });

  it('refuses to run when an applied migration was edited afterwards', async () => {
    const dir = migrationsDir({ '20990101000000_a': 'CREATE TABLE mig_a (id bigint);' });
    await expect(migrate(client, dir)).rejects.toThrow(/was modified after it was applied/);
  });
});

describe('embedded database for in-memory datasource URLs', () => {
  it('runs the same Prisma client over PGlite with the committed migrations applied', async () => {
    const db = await createDbClient({ kind: 'memory', name: 'test' });
    try {
      await db.prisma.managedServer.create({ data: { name: 'e1', url: 'http://127.0.0.1:1' } });
      expect(await db.prisma.managedServer.count()).toBe(1);
      await db.ping();
    } finally {
      await db.close();
    }
  });
});
