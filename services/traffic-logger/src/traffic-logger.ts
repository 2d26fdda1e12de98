import Redis from 'ioredis';
import { TrafficConsumer } from '@mockyard/bus';
import { redisKeys } from '@mockyard/contracts';
import type { DbHandle } from '@mockyard/db';
import type { Logger } from '@mockyard/service-kit';
import { ExchangeRepo } from './adapters/exchange.repo';
import { RetentionQueue } from './adapters/retention.queue';
import { createApp } from './app';
import type { LoggerConfig } from './config';
import { createStoreTrafficBatch } from './consumers/traffic.consumer';
import { ExchangeTail } from './live/exchange-tail';
import { LiveFeeds } from './live/live-feeds';

/** Pub/sub channel on which instances announce committed rows (message: the highest new seq). */
export const storedChannel = (prefix: string) => `${prefix}:traffic:stored`;

export interface TrafficLoggerParts {
  app: ReturnType<typeof createApp>;
  consumer: TrafficConsumer;
  repo: ExchangeRepo;
  feeds: LiveFeeds;
  /** Starts consuming, the live tail's subscription and the retention job. */
  start(): Promise<void>;
  /** Stops intake first (nothing acked that was not committed), then feeds, jobs and connections. */
  stop(graceMs: number): Promise<void>;
}

/** Wires the logger from its config and an open database: consumer, live feed, retention, HTTP app. */
export function createTrafficLogger(config: LoggerConfig, deps: { logger: Logger; db: DbHandle }): TrafficLoggerParts {
  const { logger, db } = deps;
  const keys = redisKeys(config.redisPrefix);
  const redisOptions = { maxRetriesPerRequest: 2, lazyConnect: true } as const;
  const redis = new Redis(config.redisUrl, redisOptions);
  const subscriber = new Redis(config.redisUrl, redisOptions);
  const bullConnection = new Redis(config.redisUrl, { maxRetriesPerRequest: null, lazyConnect: true });
  for (const [name, conn] of [['commands', redis], ['subscriber', subscriber], ['jobs', bullConnection]] as const) {
    conn.on('error', (err) => logger.debug({ connection: name, err: err.message }, 'redis connection error'));
  }

  const repo = new ExchangeRepo(db);
  const tail = new ExchangeTail({ source: repo, logger, pollMs: config.streamPollMs });
  const feeds = new LiveFeeds({ tail, replay: repo, logger, heartbeatMs: config.streamHeartbeatMs, replayLimit: config.streamReplayLimit });
  const announce = (seqs: number[]) => {
    if (seqs.length === 0) return;
    tail.poke();
    redis.publish(storedChannel(config.redisPrefix), String(Math.max(...seqs))).catch((err: Error) => logger.debug({ err: err.message }, 'stored announcement not published'));
  };
  const consumer = new TrafficConsumer({
    redis,
    prefix: config.redisPrefix,
    consumerName: config.consumerName,
    batchSize: config.batchSize,
    batchMaxBytes: config.batchMaxBytes,
    batchMaxWaitMs: config.batchMaxWaitMs,
    claimIdleMs: config.claimIdleMs,
    deadLetterMaxLength: config.deadLetterMaxLength,
    logger,
    handle: createStoreTrafficBatch({ repo, pingDatabase: () => db.ping(), onStored: announce, logger }),
  });
  const retention = new RetentionQueue({
    connection: bullConnection,
    bullPrefix: keys.bullPrefix,
    intervalMs: config.retentionIntervalMs,
    policy: { maxAgeMs: config.retentionMaxAgeMs, maxRows: config.retentionMaxRows },
    repo,
    logger,
  });
  const app = createApp({
    logger,
    repo,
    feeds,
    count: { exactLimit: config.countExactLimit, timeoutMs: config.countTimeoutMs },
    readiness: { database: () => db.ping(), redis: () => redis.ping() },
  });

  return {
    app,
    consumer,
    repo,
    feeds,
    async start() {
      await Promise.all([redis.connect(), subscriber.connect(), bullConnection.connect()]);
      subscriber.on('message', () => tail.poke());
      await subscriber.subscribe(storedChannel(config.redisPrefix));
      await consumer.start();
      await retention.start();
      logger.info({ consumer: config.consumerName, stream: keys.trafficStream, group: keys.trafficConsumerGroup }, 'traffic consumer started');
    },
    async stop(graceMs) {
      await consumer.stop(graceMs);
      feeds.closeAll();
      await tail.stop();
      await retention.stop().catch((err: Error) => logger.warn({ err: err.message }, 'retention stop failed'));
      await Promise.all([subscriber, bullConnection, redis].map((conn) => closeRedis(conn)));
    },
  };
}

/** QUIT (the server closes the socket, nothing lingers); cut the connection if Redis does not answer soon. */
async function closeRedis(conn: Redis, waitMs = 500): Promise<void> {
  if (conn.status === 'end') return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    conn.quit().catch(() => undefined),
    new Promise((resolve) => {
      timer = setTimeout(resolve, waitMs);
    }),
  ]);
  clearTimeout(timer);
  if ((conn.status as string) !== 'end') conn.disconnect();
}
