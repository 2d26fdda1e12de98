import { createHash } from 'node:crypto';
import pg from 'pg';
import { listMigrations, migrate } from '@mockyard/db';
import { TEST_ENV } from './test-env';

type Stoppable = { stop(): Promise<unknown> };
const started: Stoppable[] = [];

/**
 * Jest global setup for integration tests: real PostgreSQL and Redis, from DATABASE_URL/REDIS_URL when
 * given, else from testcontainers (imported lazily: it cannot even load where Docker is absent).
 * Migrates one template database per migration set; each test file clones it (see createTestDatabase).
 */
export default async function globalSetup(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL ?? (await startPostgresContainer());
  const redisUrl = process.env.REDIS_URL ?? (await startRedisContainer());

  const digest = createHash('sha256');
  for (const m of listMigrations()) digest.update(m.name).update(m.checksum);
  const template = `mockyard_tpl_${digest.digest('hex').slice(0, 12)}`;

  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock(727275)');
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (exists.rowCount === 0) {
      await admin.query(`CREATE DATABASE "${template}"`);
      const url = new URL(databaseUrl);
      url.pathname = `/${template}`;
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        await migrate(client);
      } catch (err) {
        await client.end();
        await admin.query(`DROP DATABASE IF EXISTS "${template}"`);
        throw err;
      }
      await client.end();
    }
    await admin.query('SELECT pg_advisory_unlock(727275)');
  } finally {
    await admin.end();
  }
  process.env[TEST_ENV.adminDatabaseUrl] = databaseUrl;
  process.env[TEST_ENV.templateDatabase] = template;
  process.env[TEST_ENV.redisUrl] = redisUrl;
  (globalThis as { __mockyardContainers?: Stoppable[] }).__mockyardContainers = started;
}

async function startPostgresContainer(): Promise<string> {
  const mod = await importContainers('@testcontainers/postgresql', 'DATABASE_URL (e.g. postgresql://postgres@127.0.0.1:5432/test)');
  const container = await new mod.PostgreSqlContainer('postgres:16-alpine').start();
  started.push(container);
  return container.getConnectionUri();
}

async function startRedisContainer(): Promise<string> {
  const mod = await importContainers('@testcontainers/redis', 'REDIS_URL (e.g. redis://127.0.0.1:6379)');
  const container = await new mod.RedisContainer('redis:7-alpine').start();
  started.push(container);
  return container.getConnectionUrl();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function importContainers(name: string, instead: string): Promise<any> {
  try {
    return await import(name);
  } catch (err) {
    throw new Error(`Tests need a real database: set ${instead}, or install Docker so testcontainers can start one (${(err as Error).message})`);
  }
}
