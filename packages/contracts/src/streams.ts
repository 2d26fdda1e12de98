/**
 * Redis key names shared by producers and consumers. Every key lives under a prefix (config
 * `redis.prefix`, default "mockyard") so several stacks or test files can share one Redis.
 */
export const DEFAULT_REDIS_PREFIX = 'mockyard';

export function redisKeys(prefix = DEFAULT_REDIS_PREFIX) {
  return {
    trafficStream: `${prefix}:traffic`,
    trafficDeadLetter: `${prefix}:traffic:dead`,
    trafficConsumerGroup: 'traffic-logger',
    /** BullMQ's own `prefix` option (queues live under `<prefix>:bull:<queue>`). */
    bullPrefix: `${prefix}:bull`,
  };
}

/**
 * Wire format of one traffic stream entry: `XADD <trafficStream> MAXLEN ~ <n> * event <json>` where
 * <json> is a TrafficEvent (see traffic-event.ts). Consumers parse it with TrafficEventSchema and move
 * entries that fail to the dead-letter stream with the reason.
 */
export const TRAFFIC_EVENT_FIELD = 'event';
