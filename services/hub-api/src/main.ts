import { ConfigError } from '@mockyard/config';
import { createDbClient } from '@mockyard/db';
import { createLogger, createShutdown, handleSignals, startServer } from '@mockyard/service-kit';
import { createApp } from './app';
import { loadHubConfig } from './config';

async function main() {
  const config = loadHubConfig({ env: process.env });
  const logger = createLogger({ service: 'hub-api', level: config.logLevel });
  const shutdown = createShutdown(logger, config.shutdownTimeoutMs);
  handleSignals(process, shutdown);
  const db = await createDbClient(config.datasource);
  shutdown.add('database', () => db.close());
  const server = await startServer(createApp({ logger, db }), config.port, config.bindAddress);
  shutdown.add('http', () => server.close(config.shutdownTimeoutMs / 2));
  logger.info({ port: server.port, database: db.kind }, 'hub-api listening');
}

main().catch((err) => {
  process.stderr.write(`hub-api failed to start: ${err instanceof ConfigError ? err.message : (err as Error).stack}\n`);
  process.exit(1);
});
