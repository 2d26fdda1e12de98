import { ConfigError } from '@mockyard/config';
import { createLogger, createShutdown, handleSignals, startServer } from '@mockyard/service-kit';
import { loadHubConfig } from './config';
import { createHub } from './create-hub';

async function main() {
  const config = loadHubConfig({ env: process.env });
  const logger = createLogger({ service: 'hub-api', level: config.logLevel });
  const shutdown = createShutdown(logger, config.shutdownTimeoutMs);
  handleSignals(process, shutdown);
  const hub = await createHub({ config, logger });
  shutdown.add('hub (workers, queues, engine clients, redis, database)', () => hub.stop());
  await hub.start();
  const server = await startServer(hub.app, config.port, config.bindAddress);
  shutdown.add('http', () => server.close(config.shutdownTimeoutMs / 2));
  logger.info({ port: server.port, localEngineUrl: config.localEngineUrl, isApiKeyRequired: config.apiKey !== undefined }, 'hub-api listening');
}

main().catch((err) => {
  process.stderr.write(`hub-api failed to start: ${err instanceof ConfigError ? err.message : (err as Error).stack}\n`);
  process.exit(1);
});
