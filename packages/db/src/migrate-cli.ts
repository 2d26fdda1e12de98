// `npm run db:migrate`: applies committed migrations to the configured database (offline-safe).
import { datasourceField, loadConfig } from '@mockyard/config';
import pg from 'pg';
import { createDatabaseIfMissing } from './ensure-database';
import { migrate } from './migrate';

async function main() {
  const { datasource } = loadConfig({ datasource: datasourceField }, { env: process.env });
  if (datasource.kind === 'memory') {
    process.stdout.write('In-memory datasource: migrations are applied when each service starts.\n');
    return;
  }
  if (await createDatabaseIfMissing(datasource.url)) process.stdout.write(`Created database ${new URL(datasource.url).pathname.slice(1)}\n`);
  const client = new pg.Client({ connectionString: datasource.url });
  await client.connect();
  try {
    const { applied } = await migrate(client);
    process.stdout.write(applied.length ? `Applied ${applied.join(', ')}\n` : 'Database is up to date.\n');
  } finally {
    await client.end();
  }
}

main().catch((err: Error) => {
  process.stderr.write(`db:migrate failed: ${err.message}\n`);
  process.exit(1);
});
