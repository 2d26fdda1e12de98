import { ConfigError } from '@mockyard/config';
import { createDbClient } from '@mockyard/db';
import { createLogger, createShutdown, handleSignals, setHeapGrowingPercent, startServer } from '@mockyard/service-kit';
import { loadLoggerConfig } from './config';
import { createTrafficLogger } from './traffic-logger';

async function main() {
  const config = loadLoggerConfig({ env: process.env });
  setHeapGrowingPercent(config.heapGrowingPercent);
  const logger = createLogger({ service: 'traffic-logger', level: config.logLevel });
  const shutdown = createShutdown(logger, config.shutdownTimeoutMs);
  handleSignals(process, shutdown);
  const db = await createDbClient(config.datasource, { migrate: true });
  shutdown.add('database', () => db.close());
  const trafficLogger = createTrafficLogger(config, { logger, db });
  const server = await startServer(trafficLogger.app, config.port, config.bindAddress);
  shutdown.add('http', () => server.close(config.shutdownTimeoutMs / 4));
  // Registered last, so it runs first on SIGTERM: stop reading and acking before anything else closes.
  shutdown.add('traffic consumer', () => trafficLogger.stop(config.shutdownTimeoutMs / 2));
  await trafficLogger.start();
  logger.info({ port: server.port, database: db.kind }, 'traffic-logger listening');
}

main().catch((err) => {
  process.stderr.write(`traffic-logger failed to start: ${err instanceof ConfigError ? err.message : (err as Error).stack}\n`);
  process.exit(1);
});
