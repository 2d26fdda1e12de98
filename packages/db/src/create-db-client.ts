import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { parseConnectTimeoutSeconds } from '@mockyard/config';
import { PrismaClient } from './generated/prisma/client';
import { migrate } from './migrate';

export type DatasourceRef = { kind: 'postgres'; url: string } | { kind: 'memory'; name: string };

/** One statement on the connection of a driver transaction: positional parameters ($1, $2, …), the rows. */
export type DriverQuery = <R = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<R[]>;

export interface DbHandle {
  prisma: PrismaClient;
  kind: DatasourceRef['kind'];
  /**
   * One statement straight on the driver (pg's pool, or PGlite), beside Prisma. A service that needs no
   * Prisma model queries can use only this and `transaction`: Prisma 7 loads its query compiler (about
   * 70 MB of WebAssembly) with the first query it runs, raw ones included.
   */
  query: DriverQuery;
  /**
   * Runs `fn` in one transaction straight on the driver (pg's pool, or PGlite), beside Prisma: for hot
   * paths with large parameters. A Prisma raw query serialises its parameters to JSON and parses them
   * back on the way to the driver, several copies of each; a driver query hands the value to the wire
   * once. Commits when `fn` resolves, rolls back when it throws.
   */
  transaction<T>(fn: (query: DriverQuery) => Promise<T>): Promise<T>;
  /** Cheap round trip for readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DbOptions {
  /** Pool size for PostgreSQL; defaults to 10. */
  maxConnections?: number;
  /** Apply migrations on start (always true for the embedded database, which starts empty). */
  migrate?: boolean;
}

/** pgjdbc's default `connectTimeout`; libpq has none, which leaves a blackholed server's callers waiting. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/**
 * The bound on opening a connection and on waiting for a free one in the pool, from the URL's libpq
 * parameter `connect_timeout` (whole seconds; zero or negative for none and under 2 read as 2, as in
 * libpq), else 10 s. Past it the caller gets "Connection terminated due to connection timeout" /
 * "timeout exceeded when trying to connect", which the services answer as 503: a database that drops
 * packets instead of refusing them is unavailable too, not a hang.
 */
export function connectTimeoutMs(url: string): number {
  const raw = new URL(url).searchParams.get('connect_timeout');
  if (raw === null) return DEFAULT_CONNECT_TIMEOUT_MS;
  const seconds = parseConnectTimeoutSeconds(raw);
  if (seconds === undefined) throw new Error(`connect_timeout must be a whole number of seconds (0 for none), got '${raw}'`);
  return seconds <= 0 ? 0 : Math.max(2, seconds) * 1000;
}

export async function createDbClient(source: DatasourceRef, options: DbOptions = {}): Promise<DbHandle> {
  if (source.kind === 'memory') return createEmbedded();
  // One pool shared by Prisma's adapter and the driver transactions, so both count against one bound.
  const connectionTimeoutMillis = connectTimeoutMs(source.url);
  const pool = new pg.Pool({
    connectionString: source.url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis,
    // an open connection to a host that vanished is found out by TCP keep-alive, not never
    keepAlive: true,
  });
  pool.on('error', () => undefined); // an idle client's connection dropped: the pool replaces it
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  if (options.migrate) {
    const client = new pg.Client({ connectionString: source.url, connectionTimeoutMillis });
    await client.connect();
    try {
      await migrate(client);
    } finally {
      await client.end();
    }
  }
  return {
    prisma,
    kind: 'postgres',
    query: async (sql, params) => (await pool.query(sql, params)).rows,
    transaction: async (fn) => {
      const client = await pool.connect();
      // A checked-out client has no listener of the pool's: the server ending the connection between two
      // statements (shutdown, pg_terminate_backend) would be an unhandled 'error' event, a crash.
      let lost: Error | undefined;
      const onLost = (err: Error) => {
        lost ??= err; // the server's notice comes first, then the driver's "terminated unexpectedly"
      };
      client.on('error', onLost);
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await fn(async (sql, params) => (await client.query(sql, params)).rows);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        if (!lost) {
          await client.query('ROLLBACK').catch((rollbackErr: Error) => {
            broken = rollbackErr; // the connection is unusable: do not hand it back to the pool
          });
        }
        // The server's own reason, not the driver's "not queryable" that follows it.
        throw lost ?? err;
      } finally {
        client.removeListener('error', onLost);
        client.release(lost ?? broken);
      }
    },
    ping: async () => {
      await pool.query('SELECT 1');
    },
    close: async () => {
      await prisma.$disconnect();
      await pool.end().catch(() => undefined);
    },
  };
}

async function createEmbedded(): Promise<DbHandle> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PrismaPGlite } = await import('pglite-prisma-adapter');
  const pglite = new PGlite();
  await migrate(pglite);
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  return {
    prisma,
    kind: 'memory',
    query: async (sql, params) => (await pglite.query(sql, params)).rows as never,
    transaction: (fn) => pglite.transaction((tx) => fn(async (sql, params) => (await tx.query(sql, params)).rows as never)),
    ping: async () => {
      await pglite.query('SELECT 1');
    },
    close: async () => {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}
