import Redis from 'ioredis';
import { TrafficConsumer, type TrafficConsumerStats } from '@mockyard/bus';
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
  /** `traffic.consumer.concurrency` members of the consumer group, sharing the handler. */
  consumers: TrafficConsumer[];
  /** The consumers' counters summed. */
  consumerStats(): TrafficConsumerStats;
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
  const handle = createStoreTrafficBatch({ repo, pingDatabase: () => db.ping(), onStored: announce, logger });
  // Several members per instance: while one batch's insert is in the database (inserts queue on the
  // sequence lock), another batch is read, decoded and mapped. Each member keeps its own pending list, so
  // every guarantee of separate instances holds (ack after commit, own pending re-read after a restart).
  const consumerNames = Array.from({ length: config.consumerConcurrency }, (_, i) => (i === 0 ? config.consumerName : `${config.consumerName}-${i + 1}`));
  const consumers = consumerNames.map(
    (consumerName) =>
      new TrafficConsumer({
        redis,
        prefix: config.redisPrefix,
        consumerName,
        batchSize: config.batchSize,
        batchMaxBytes: config.batchMaxBytes,
        batchMaxWaitMs: config.batchMaxWaitMs,
        claimIdleMs: config.claimIdleMs,
        deadLetterMaxLength: config.deadLetterMaxLength,
        logger,
        handle,
      }),
  );
  const consumerStats = () => sumStats(consumers.map((c) => c.stats));
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
    consumerStats,
    allowedHosts: config.allowedHosts,
    apiKey: config.apiKey,
  });

  return {
    app,
    consumers,
    consumerStats,
    repo,
    feeds,
    async start() {
      await Promise.all([redis.connect(), subscriber.connect(), bullConnection.connect()]);
      subscriber.on('message', () => tail.poke());
      await subscriber.subscribe(storedChannel(config.redisPrefix));
      await Promise.all(consumers.map((c) => c.start()));
      await retention.start();
      logger.info({ consumers: consumerNames, stream: keys.trafficStream, group: keys.trafficConsumerGroup }, 'traffic consumer started');
    },
    async stop(graceMs) {
      await Promise.all(consumers.map((c) => c.stop(graceMs)));
      feeds.closeAll();
      await tail.stop();
      await retention.stop().catch((err: Error) => logger.warn({ err: err.message }, 'retention stop failed'));
      await Promise.all([subscriber, bullConnection, redis].map((conn) => closeRedis(conn)));
    },
  };
}

function sumStats(all: TrafficConsumerStats[]): TrafficConsumerStats {
  const total: TrafficConsumerStats = { batches: 0, acked: 0, deadLettered: 0, claimed: 0, failedBatches: 0, trimmed: 0 };
  for (const stats of all) for (const key of Object.keys(total) as (keyof TrafficConsumerStats)[]) total[key] += stats[key];
  return total;
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
