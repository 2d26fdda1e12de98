import os from 'node:os';
import { ConfigError } from '@mockyard/config';
import { createLogger, createShutdown, handleSignals, startServer } from '@mockyard/service-kit';
import { startHubRegistration } from './adapters/hub-registration.client';
import { createTrafficPublisher } from './adapters/traffic.publisher';
import { createEngineApp } from './app';
import { loadEngineConfig } from './config';

async function main() {
  const config = loadEngineConfig({ env: process.env });
  const logger = createLogger({ service: 'engine', level: config.logLevel });
  const shutdown = createShutdown(logger, config.shutdownTimeoutMs);
  handleSignals(process, shutdown);
  const publicUrl = config.publicUrl ?? `http://${config.bindAddress === '0.0.0.0' ? os.hostname() : config.bindAddress}:${config.port}`;

  const traffic = config.redisUrl ? createTrafficPublisher({ redisUrl: config.redisUrl, prefix: config.redisPrefix, engineId: config.name, logger }) : undefined;
  if (traffic) shutdown.add('traffic publisher', () => traffic.close());

  const { handler } = await createEngineApp({
    logger,
    name: config.name,
    publicUrl,
    rootDir: config.rootDir,
    journalMaxEntries: config.journalMaxEntries,
    isJournalEnabled: config.journalEnabled,
    isGlobalTemplating: config.globalTemplating,
    adminApiKey: config.adminApiKey,
    proxyTimeoutMs: config.proxyTimeoutMs,
    maxAdminBodyBytes: config.maxAdminBodyBytes,
    traffic,
    onShutdownRequest: () => void shutdown.run('POST /__admin/shutdown').then((code) => process.exit(code)),
  });
  const server = await startServer(handler, config.port, config.bindAddress);
  shutdown.add('http', () => server.close(config.shutdownTimeoutMs / 2));
  logger.info({ port: server.port, name: config.name, publicUrl }, 'engine listening');

  if (config.hubUrl) {
    const registration = startHubRegistration({ hubUrl: config.hubUrl, name: config.name, publicUrl, apiKey: config.hubApiKey, heartbeatMs: config.heartbeatMs, logger });
    shutdown.add('hub registration', () => registration.stop());
  }
}

main().catch((err) => {
  process.stderr.write(`engine failed to start: ${err instanceof ConfigError ? err.message : (err as Error).stack}\n`);
  process.exit(1);
});
