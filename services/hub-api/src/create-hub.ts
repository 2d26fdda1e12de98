import Redis from 'ioredis';
import { createDbClient, type DbHandle } from '@mockyard/db';
import type { Logger } from '@mockyard/service-kit';
import type { Express } from 'express';
import { EngineClientPool } from './adapters/engine.client';
import { HubQueues } from './adapters/hub-queues';
import { PrismaServerRepo } from './adapters/server.repo';
import { TrafficLogClient } from './adapters/traffic-log.client';
import { createApp } from './app';
import type { HubConfig } from './config';
import { EngineOperations } from './domain/engine-operations';
import { Registry } from './domain/registry';
import type { HubContext } from './hub-context';
import { probeEngines } from './jobs/probe-engines.job';
import { pushStubs } from './jobs/push-stubs.job';

export interface CreateHubOptions {
  config: HubConfig;
  logger: Logger;
  /** An open database (tests); otherwise one is opened from config.datasource and closed by stop(). */
  db?: DbHandle;
  /** false: no Redis, no queues (the stdio MCP entry). */
  withQueues?: boolean;
}

export interface Hub {
  context: HubContext;
  app: Express;
  /** Starts the job workers and the repeatable health probe. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Builds the hub from its config: database, Redis, engine clients, registry, queues and the app. */
export async function createHub(options: CreateHubOptions): Promise<Hub> {
  const { config, logger } = options;
  // migrations are idempotent and serialised by an advisory lock, so every service may apply them on start
  const db = options.db ?? (await createDbClient(config.datasource, { migrate: true }));
  const ownsDb = options.db === undefined;
  const withQueues = options.withQueues ?? true;
  const redis = withQueues ? new Redis(config.redisUrl, { maxRetriesPerRequest: null, lazyConnect: false }) : undefined;
  redis?.on('error', (err) => logger.warn({ error: err.message }, 'redis connection error'));

  const admin = new EngineClientPool({
    timeoutMs: config.engineTimeoutMs,
    insecureTls: config.engineInsecureTls,
    apiKey: config.engineApiKey,
    breaker: { volumeThreshold: config.breakerVolumeThreshold, errorThresholdPercentage: config.breakerErrorPercentage, resetTimeoutMs: config.breakerResetMs, rollingWindowMs: config.breakerWindowMs },
    logger,
  });
  const registry = new Registry(new PrismaServerRepo(db.prisma), admin, { localEngine: { name: 'local', url: config.localEngineUrl }, offlineAfterMs: config.offlineAfterMs });
  const operations = new EngineOperations(admin);
  const probeAll = () => probeEngines({ registry, admin, timeoutMs: config.healthTimeoutMs, logger });
  const queues = redis
    ? new HubQueues({
        redis,
        redisPrefix: config.redisPrefix,
        logger,
        probeIntervalMs: config.healthProbeIntervalMs,
        fanoutAttempts: config.fanoutAttempts,
        fanoutBackoffMs: config.fanoutBackoffMs,
        processors: { probeEngines: probeAll, pushStubs: (job) => pushStubs({ registry, operations }, job) },
      })
    : undefined;

  const context: HubContext = {
    logger,
    registry,
    operations,
    admin,
    traffic: new TrafficLogClient(config.loggerUrl, config.engineTimeoutMs, config.loggerApiKey),
    queues,
    probeAll,
    checks: { database: () => db.ping(), ...(redis ? { redis: () => redis.ping() } : {}) },
    healthTimeoutMs: config.healthTimeoutMs,
  };
  const app = createApp(context, { apiKey: config.apiKey, allowedHosts: config.allowedHosts });
  return {
    context,
    app,
    start: async () => {
      await queues?.start();
    },
    stop: async () => {
      await queues?.stop();
      admin.close();
      // quit() waits for a connection that a Redis still away would never give: disconnect then
      if (redis?.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis?.disconnect();
      if (ownsDb) await db.close();
    },
  };
}
