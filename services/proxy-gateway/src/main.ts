import { ConfigError } from '@mockyard/config';
import { createLogger, createShutdown, handleSignals } from '@mockyard/service-kit';
import { loadGatewayConfig } from './config';
import { startGateway } from './start-gateway';

async function main() {
  const config = loadGatewayConfig({ env: process.env });
  const logger = createLogger({ service: 'proxy-gateway', level: config.logLevel });
  const shutdown = createShutdown(logger, config.shutdownTimeoutMs);
  handleSignals(process, shutdown);
  const gateway = await startGateway(config, logger);
  shutdown.add('gateway', () => gateway.close(config.shutdownTimeoutMs / 2));
  logger.info({ port: gateway.port, proxyPort: gateway.proxyPort, capture: config.captureEnabled }, 'proxy-gateway listening');
}

main().catch((err) => {
  process.stderr.write(`proxy-gateway failed to start: ${err instanceof ConfigError ? err.message : (err as Error).stack}\n`);
  process.exit(1);
});
