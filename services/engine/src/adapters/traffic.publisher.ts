import { join } from 'node:path';
import Redis from 'ioredis';
import { publisherRedisOptions, Spool, TrafficPublisher as StreamPublisher, type TrafficPublisherCounters } from '@mockyard/bus';
import type { Logger } from '@mockyard/service-kit';
import type { TrafficSink } from '../domain/ports';
import type { ServeEvent } from '../domain/serve-event';
import { toTrafficEvent } from '../domain/to-traffic-event';

export interface TrafficPublisher extends TrafficSink {
  counters(): TrafficPublisherCounters;
  close(): Promise<void>;
}

/**
 * Publishes each serve event to the traffic stream through the same publisher as the gateway
 * (@mockyard/bus): never awaited on the response path, batched XADDs behind a circuit breaker, and an
 * append-only spool under `<rootDir>/spool` while Redis is away, replayed in order when it returns.
 */
export async function createTrafficPublisher(options: {
  redisUrl: string;
  prefix: string;
  engineId: string;
  rootDir: string;
  logger: Logger;
  spoolMaxBytes?: number;
  /** How long start-up waits for Redis before publishing (events spool meanwhile either way). */
  connectTimeoutMs?: number;
}): Promise<TrafficPublisher> {
  const redis = new Redis(options.redisUrl, { ...publisherRedisOptions, connectionName: `engine-${options.engineId}-publisher` });
  redis.on('error', (err: Error) => options.logger.debug({ err: err.message }, 'traffic stream redis error'));
  await waitForReady(redis, options.connectTimeoutMs ?? 2000);
  const publisher = new StreamPublisher({
    redis,
    prefix: options.prefix,
    spool: new Spool({ dir: join(options.rootDir, 'spool'), maxBytes: options.spoolMaxBytes ?? 64 * 1024 * 1024 }),
    logger: options.logger,
  });
  publisher.start();
  return {
    publish(event: ServeEvent) {
      // built in the publisher's next batch (the serve event is final once its listeners run)
      publisher.publishLater(() => ({ event: toTrafficEvent(event, options.engineId) }));
    },
    counters: () => publisher.counters(),
    async close() {
      await publisher.stop();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

function waitForReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
