import Redis from 'ioredis';
import { redisKeys, TRAFFIC_EVENT_FIELD } from '@mockyard/contracts';
import type { Logger } from '@mockyard/service-kit';
import type { TrafficSink } from '../domain/ports';
import type { ServeEvent } from '../domain/serve-event';
import { toTrafficEvent } from '../domain/to-traffic-event';

export const TRAFFIC_STREAM_MAXLEN = 100000;

export interface TrafficPublisher extends TrafficSink {
  readonly stats: { published: number; failed: number };
  close(): Promise<void>;
}

/**
 * Publishes each serve event to the traffic stream with `XADD … MAXLEN ~ 100000 * event <json>`. Fire and
 * forget: never awaited on the response path; failures (Redis down: commands fail fast, no offline queue)
 * are counted and logged at most once per 30 s.
 */
export function createTrafficPublisher(options: { redisUrl: string; prefix: string; engineId: string; logger: Logger }): TrafficPublisher {
  const redis = new Redis(options.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
  redis.on('error', () => undefined); // connection errors surface as failed commands below
  const stream = redisKeys(options.prefix).trafficStream;
  const stats = { published: 0, failed: 0 };
  let lastWarnAt = 0;
  return {
    stats,
    publish(event: ServeEvent) {
      let json: string;
      try {
        json = JSON.stringify(toTrafficEvent(event, options.engineId));
      } catch (err) {
        stats.failed++;
        options.logger.warn({ err }, 'traffic event could not be encoded');
        return;
      }
      redis.xadd(stream, 'MAXLEN', '~', TRAFFIC_STREAM_MAXLEN, '*', TRAFFIC_EVENT_FIELD, json).then(
        () => {
          stats.published++;
        },
        (err: Error) => {
          stats.failed++;
          const now = Date.now();
          if (now - lastWarnAt > 30000) {
            lastWarnAt = now;
            options.logger.warn({ err: err.message, failed: stats.failed }, 'traffic event not published');
          }
        },
      );
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
