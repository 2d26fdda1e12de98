import { setFlagsFromString } from 'node:v8';
import { ConfigError } from '@mockyard/config';
import { createLogger, createShutdown, handleSignals, setHeapGrowingPercent, startServer } from '@mockyard/service-kit';
import { loadHubConfig } from './config';
import { createHub } from './create-hub';

async function main() {
  const config = loadHubConfig({ env: process.env });
  setHeapGrowingPercent(config.heapGrowingPercent);
  // Prisma's query compiler is a 3.4 MB WebAssembly module. V8 compiled it again with its optimizing tier in
  // background threads, whose allocator arenas then kept 60-75 MB for good (hub RSS 246-261 MB against 184 MB
  // with the baseline compiler only; query latency the same at p50 and p99). Set before the client compiles it.
  setFlagsFromString('--liftoff-only');
  const logger = createLogger({ service: 'hub-api', level: config.logLevel });
  const shutdown = createShutdown(logger, config.shutdownTimeoutMs);
  handleSignals(process, shutdown);
  const hub = await createHub({ config, logger });
  shutdown.add('hub (workers, queues, engine clients, redis, database)', () => hub.stop());
  // Serve first: the registry, stubs, proxy and recording need no Redis, and liveness must answer while the
  // job workers wait for a Redis that is not there yet (readiness says so).
  const server = await startServer(hub.app, config.port, config.bindAddress);
  shutdown.add('http', () => server.close(config.shutdownTimeoutMs / 2));
  logger.info({ port: server.port, localEngineUrl: config.localEngineUrl, isApiKeyRequired: config.apiKey !== undefined }, 'hub-api listening');
  await hub.start();
  logger.info('hub-api jobs started (engine health probes, fan-out)');
}

main().catch((err) => {
  process.stderr.write(`hub-api failed to start: ${err instanceof ConfigError ? err.message : (err as Error).stack}\n`);
  process.exit(1);
});
