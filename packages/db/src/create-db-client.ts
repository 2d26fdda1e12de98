import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client';
import { migrate } from './migrate';

export type DatasourceRef = { kind: 'postgres'; url: string } | { kind: 'memory'; name: string };

export interface DbHandle {
  prisma: PrismaClient;
  kind: DatasourceRef['kind'];
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

/**
 * One Prisma client over PostgreSQL (pg driver adapter) or, for an in-memory datasource, over an
 * embedded PGlite instance with the same schema: same client, same SQL migrations, no server.
 */
export async function createDbClient(source: DatasourceRef, options: DbOptions = {}): Promise<DbHandle> {
  if (source.kind === 'memory') return createEmbedded();
  const adapter = new PrismaPg({ connectionString: source.url, max: options.maxConnections ?? 10 });
  const prisma = new PrismaClient({ adapter });
  if (options.migrate) {
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: source.url });
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
    ping: async () => {
      await prisma.$queryRawUnsafe('SELECT 1');
    },
    close: () => prisma.$disconnect(),
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
    ping: async () => {
      await pglite.query('SELECT 1');
    },
    close: async () => {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}
