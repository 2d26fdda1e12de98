import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The committed migrations folder (shipped with the package, next to dist/ and src/). */
export const MIGRATIONS_DIR = join(__dirname, '..', 'prisma', 'migrations');

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

/** Anything that can run SQL: a pg Client/Pool or a PGlite instance. */
export interface SqlRunner {
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  exec?(sql: string): Promise<unknown>;
}

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

const BOOKKEEPING = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/**
 * Applies pending migrations in order, each in its own transaction, recording them in
 * `_prisma_migrations` exactly as `prisma migrate deploy` does, so either tool can take over.
 * A changed checksum of an applied migration is an error (the history was rewritten).
 * Concurrent runners are serialised by an advisory lock.
 */
export async function migrate(db: SqlRunner, dir = MIGRATIONS_DIR): Promise<{ applied: string[] }> {
  const run = (sql: string) => (db.exec ? db.exec(sql) : db.query(sql));
  await run(BOOKKEEPING);
  await db.query('SELECT pg_advisory_lock(727274)');
  try {
    const { rows } = await db.query('SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"');
    const done = new Map(rows.filter((r) => r.finished_at && !r.rolled_back_at).map((r) => [String(r.migration_name), String(r.checksum)]));
    const failed = rows.filter((r) => !r.finished_at && !r.rolled_back_at).map((r) => String(r.migration_name));
    if (failed.length) throw new Error(`migration ${failed[0]} failed earlier and must be resolved by hand (see _prisma_migrations)`);
    const applied: string[] = [];
    for (const m of listMigrations(dir)) {
      const previous = done.get(m.name);
      if (previous) {
        if (previous !== m.checksum) throw new Error(`migration ${m.name} was modified after it was applied`);
        continue;
      }
      const id = randomUUID();
      await run('BEGIN');
      try {
        await db.query('INSERT INTO "_prisma_migrations" (id, checksum, migration_name) VALUES ($1, $2, $3)', [id, m.checksum, m.name]);
        await run(m.sql);
        await db.query('UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1', [id]);
        await run('COMMIT');
      } catch (err) {
        await run('ROLLBACK');
        throw new Error(`migration ${m.name} failed: ${(err as Error).message}`);
      }
      applied.push(m.name);
    }
    return { applied };
  } finally {
    await db.query('SELECT pg_advisory_unlock(727274)');
  }
}
