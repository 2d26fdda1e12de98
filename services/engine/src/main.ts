import os from 'node:os';
import { ConfigError } from '@mockyard/config';
import { createLogger, createShutdown, handleSignals, OutboundPolicy, setHeapGrowingPercent, startServer } from '@mockyard/service-kit';
import { startHubRegistration } from './adapters/hub-registration.client';
import { createTrafficPublisher } from './adapters/traffic.publisher';
import { createEngineApp } from './app';
import { loadEngineConfig } from './config';

/** Environment variables the `systemValue` helper may reveal, keyed as the matching package expects. */
function collectSystemValues(patterns: string[]): Record<string, string> {
  const regexes = patterns.map((p) => new RegExp(`^(?:${p})$`, 'i'));
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && regexes.some((r) => r.test(name))) values[`ENVIRONMENT:${name}`] = value;
  }
  return values;
}

async function main() {
  const config = loadEngineConfig({ env: process.env });
  setHeapGrowingPercent(config.heapGrowingPercent);
  const logger = createLogger({ service: 'engine', level: config.logLevel });
  const shutdown = createShutdown(logger, config.shutdownTimeoutMs);
  handleSignals(process, shutdown);
  let listeningPort = config.port;
  const publicUrl = () => config.publicUrl ?? `http://${config.bindAddress === '0.0.0.0' ? os.hostname() : config.bindAddress}:${listeningPort}`;

  const traffic = config.redisUrl ? await createTrafficPublisher({ redisUrl: config.redisUrl, prefix: config.redisPrefix, engineId: config.name, rootDir: config.rootDir, logger }) : undefined;
  if (traffic) shutdown.add('traffic publisher', () => traffic.close());

  const engineApp = await createEngineApp({
    logger,
    name: config.name,
    publicUrl,
    rootDir: config.rootDir,
    journalMaxEntries: config.journalMaxEntries,
    isJournalEnabled: config.journalEnabled,
    isGlobalTemplating: config.globalTemplating,
    adminApiKey: config.adminApiKey,
    proxyTimeoutMs: config.proxyTimeoutMs,
    outbound: new OutboundPolicy({ allow: config.outboundAllow, deny: config.outboundDeny, allowLinkLocal: config.outboundAllowLinkLocal, configKey: 'engine.outbound' }),
    maxAdminBodyBytes: config.maxAdminBodyBytes,
    maxRequestBodyBytes: config.maxRequestBodyBytes,
    systemValues: collectSystemValues(config.permittedSystemKeys),
    traffic,
    onShutdownRequest: () => void shutdown.run('POST /__admin/shutdown').then((code) => process.exit(code)),
  });
  shutdown.add('webhooks', () => engineApp.stop());
  const server = await startServer(engineApp.handler, config.port, config.bindAddress);
  listeningPort = server.port;
  shutdown.add('http', () => server.close(config.shutdownTimeoutMs / 2));
  logger.info({ port: server.port, name: config.name, publicUrl: publicUrl() }, 'engine listening');

  if (config.hubUrl) {
    const registration = startHubRegistration({ hubUrl: config.hubUrl, name: config.name, publicUrl: publicUrl(), apiKey: config.hubApiKey, heartbeatMs: config.heartbeatMs, logger });
    shutdown.add('hub registration', () => registration.stop());
  }
}

main().catch((err) => {
  process.stderr.write(`engine failed to start: ${err instanceof ConfigError ? err.message : (err as Error).stack}\n`);
  process.exit(1);
});
