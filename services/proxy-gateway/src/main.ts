import cluster from 'node:cluster';
import { ConfigError } from '@mockyard/config';
import { createLogger, createShutdown, handleSignals, setHeapGrowingPercent } from '@mockyard/service-kit';
import { loadGatewayConfig } from './config';
import { runPrimary } from './workers/run-primary';
import { availableCpus, resolveWorkerCount } from './workers/worker-count';
import { WORKER_INDEX_ENV } from './workers/worker-messages';

async function main() {
  const config = loadGatewayConfig({ env: process.env });
  setHeapGrowingPercent(config.heapGrowingPercent);
  const logger = createLogger({ service: 'proxy-gateway', level: config.logLevel });
  const workers = resolveWorkerCount(config.workers, availableCpus());
  if (workers > 1 && cluster.isPrimary) {
    // The primary only supervises: the workers serve both ports and do the forwarding.
    const primary = runPrimary({ workers, logger, shutdownTimeoutMs: config.shutdownTimeoutMs });
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => primary.stop(signal));
    logger.info({ workers, port: config.port, proxyPort: config.proxyPort }, 'proxy-gateway starting its workers');
    return;
  }
  const worker = cluster.isWorker ? { index: Number(process.env[WORKER_INDEX_ENV] ?? 0), count: workers } : undefined;
  const shutdown = createShutdown(logger.child(worker ? { worker: worker.index } : {}), config.shutdownTimeoutMs);
  handleSignals(process, shutdown);
  // A worker whose primary is gone (killed outright) drains and exits instead of serving on alone.
  if (worker) process.on('disconnect', () => void shutdown.run('primary went away').then((code) => process.exit(code)));
  // Loaded here, not at the top: the primary of a multi-process gateway never needs the forwarding stack.
  const { startGateway } = await import('./start-gateway.js');
  const gateway = await startGateway(config, worker ? logger.child({ worker: worker.index }) : logger, worker);
  shutdown.add('gateway', () => gateway.close(config.shutdownTimeoutMs / 2));
  logger.info({ port: gateway.port, proxyPort: gateway.proxyPort, capture: config.captureEnabled, ...(worker ? { worker: worker.index, pid: process.pid } : {}) }, 'proxy-gateway listening');
}

main().catch((err) => {
  process.stderr.write(`proxy-gateway failed to start: ${err instanceof ConfigError ? err.message : (err as Error).stack}\n`);
  process.exit(1);
});
