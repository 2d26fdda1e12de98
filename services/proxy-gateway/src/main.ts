import { ConfigError } from '@mockyard/config';
import { createLogger, createShutdown, handleSignals, startServer } from '@mockyard/service-kit';
import { createApp } from './app';
import { loadGatewayConfig } from './config';

async function main() {
  const config = loadGatewayConfig({ env: process.env });
  const logger = createLogger({ service: 'proxy-gateway', level: config.logLevel });
  const shutdown = createShutdown(logger, config.shutdownTimeoutMs);
  handleSignals(process, shutdown);
  const server = await startServer(createApp({ logger }), config.port, config.bindAddress);
  shutdown.add('http', () => server.close(config.shutdownTimeoutMs / 2));
  logger.info({ port: server.port }, 'proxy-gateway listening');
}

main().catch((err) => {
  process.stderr.write(`proxy-gateway failed to start: ${err instanceof ConfigError ? err.message : (err as Error).stack}\n`);
  process.exit(1);
});
