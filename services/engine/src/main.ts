import { ConfigError } from '@mockyard/config';
import { createLogger, createShutdown, handleSignals, startServer } from '@mockyard/service-kit';
import { createApp } from './app';
import { loadEngineConfig } from './config';

async function main() {
  const config = loadEngineConfig({ env: process.env });
  const logger = createLogger({ service: 'engine', level: config.logLevel });
  const shutdown = createShutdown(logger, config.shutdownTimeoutMs);
  handleSignals(process, shutdown);
  const server = await startServer(createApp({ logger }), config.port, config.bindAddress);
  shutdown.add('http', () => server.close(config.shutdownTimeoutMs / 2));
  logger.info({ port: server.port }, 'engine listening');
}

main().catch((err) => {
  process.stderr.write(`engine failed to start: ${err instanceof ConfigError ? err.message : (err as Error).stack}\n`);
  process.exit(1);
});
