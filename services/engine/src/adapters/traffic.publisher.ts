import Redis from 'ioredis';
import { redisKeys, TRAFFIC_EVENT_FIELD } from '@mockyard/contracts';
import type { Logger } from '@mockyard/service-kit';
import type { TrafficSink } from '../domain/ports';
import type { ServeEvent } from '../domain/serve-event';
import { toTrafficEvent } from '../domain/to-traffic-event';

export const TRAFFIC_STREAM_MAXLEN = 100000;
/** Events waiting for Redis beyond this are dropped (counted), so a slow Redis cannot grow memory. */
export const MAX_PENDING_EVENTS = 10000;
const DOWN_STATES = new Set(['reconnecting', 'close', 'end']);

export interface TrafficPublisher extends TrafficSink {
  readonly stats: { published: number; failed: number };
  close(): Promise<void>;
}

/**
 * Publishes each serve event to the traffic stream with `XADD … MAXLEN ~ 100000 * event <json>`. Fire and
 * forget: never awaited on the response path. While Redis is down (reconnecting) events are dropped at once,
 * and at most MAX_PENDING_EVENTS wait for it; drops and failures are counted and logged at most once per 30 s.
 */
export function createTrafficPublisher(options: { redisUrl: string; prefix: string; engineId: string; logger: Logger }): TrafficPublisher {
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined); // connection errors surface as failed commands below
  const stream = redisKeys(options.prefix).trafficStream;
  const stats = { published: 0, failed: 0 };
  let lastWarnAt = 0;
  let pending = 0;
  const fail = (reason: string) => {
    stats.failed++;
    const now = Date.now();
    if (now - lastWarnAt > 30000) {
      lastWarnAt = now;
      options.logger.warn({ reason, failed: stats.failed }, 'traffic event not published');
    }
  };
  return {
    stats,
    publish(event: ServeEvent) {
      let json: string;
      try {
        json = JSON.stringify(toTrafficEvent(event, options.engineId));
      } catch (err) {
        return fail(`not encodable: ${(err as Error).message}`);
      }
      if (DOWN_STATES.has(redis.status)) return fail(`redis ${redis.status}`);
      if (pending >= MAX_PENDING_EVENTS) return fail('too many events waiting for redis');
      pending++;
      redis.xadd(stream, 'MAXLEN', '~', TRAFFIC_STREAM_MAXLEN, '*', TRAFFIC_EVENT_FIELD, json).then(
        () => {
          pending--;
          stats.published++;
        },
        (err: Error) => {
          pending--;
          fail(err.message);
        },
      );
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
