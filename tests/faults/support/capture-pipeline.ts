import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@mockyard/testkit';
import { startService, type ServiceProcess } from './service-process';

export interface CapturePipeline {
  gateway: ServiceProcess;
  logger: ServiceProcess;
  stop(): Promise<void>;
}

/**
 * The capture path as real processes: proxy-gateway (publishes each exchange to Redis) and
 * traffic-logger (consumer group → PostgreSQL), on free ports, against the given Redis and database.
 */
export async function startCapturePipeline(options: { redisUrl: string; redisPrefix: string; databaseUrl: string; loggerEnv?: Record<string, string>; gatewayEnv?: Record<string, string> }): Promise<CapturePipeline> {
  const spoolDir = mkdtempSync(join(tmpdir(), 'faults-spool-'));
  const dead = `http://127.0.0.1:${await freePort()}`;
  const common = { REDIS_URL: options.redisUrl, REDIS_PREFIX: options.redisPrefix };
  const logger = await startService('traffic-logger', await freePort(), {
    ...common,
    DATABASE_URL: options.databaseUrl,
    ...options.loggerEnv,
  });
  let gateway: ServiceProcess;
  try {
    gateway = await startService('proxy-gateway', await freePort(), {
      ...common,
      SERVICE_PROXY_PORT: String(await freePort()),
      LOGGER_URL: logger.url,
      HUB_API_URL: dead,
      WEB_URL: dead,
      CAPTURE_SPOOL_DIR: spoolDir,
      ...options.gatewayEnv,
    });
  } catch (err) {
    await logger.stop();
    throw err;
  }
  return {
    gateway,
    logger,
    stop: async () => {
      await Promise.allSettled([gateway.stop(), logger.stop()]);
      rmSync(spoolDir, { recursive: true, force: true });
    },
  };
}
