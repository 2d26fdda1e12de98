import { hostname } from 'node:os';
import { z } from 'zod';
import { allowedHostsField, bindAddressField, commonFields, configSchemas, datasourceField, loadConfig, redisField, redisPrefixField, type LoadConfigOptions } from '@mockyard/config';
import { parseDurationMs } from './domain/parse-duration-ms';

const durationSchema = z.union([z.number(), z.string()]).transform((raw, ctx) => {
  const ms = parseDurationMs(String(raw));
  if (ms === undefined) {
    ctx.addIssue({ code: 'custom', message: 'must be a duration like 7d, 12h, 30m, 45s, 500ms, a number of milliseconds, or 0/off' });
    return z.NEVER;
  }
  return ms;
});

export const loggerConfigFields = {
  ...commonFields,
  port: { keys: ['logger.port'], env: ['LOGGER_PORT'], schema: configSchemas.port, default: 8081, doc: 'internal HTTP port of traffic-logger (read API; public through the gateway)' },
  bindAddress: bindAddressField,
  allowedHosts: allowedHostsField,
  datasource: datasourceField,
  redisUrl: redisField,
  redisPrefix: redisPrefixField,
  apiKey: {
    keys: ['traffic.security.api-key'],
    env: ['TRAFFIC_API_KEY'],
    schema: configSchemas.apiKey,
    secret: true,
    doc: 'API key required in X-Api-Key (or Authorization: Bearer) on the read API, /api/* (the log, HAR export, live feed, deleting the log); unset = no key. Give hub-api the same TRAFFIC_API_KEY (and web, if the dashboard may hold it: SECURITY.md)',
  },
  consumerName: {
    keys: ['traffic.consumer.name'],
    env: ['TRAFFIC_CONSUMER_NAME'],
    schema: z.string().regex(/^[\w.:@-]{1,100}$/, 'must be 1-100 letters, digits, _ . : @ -'),
    default: `${hostname()}-${process.pid}`,
    doc: 'this instance\'s name in the consumer group (default <hostname>-<pid>; unique per instance)',
  },
  consumerConcurrency: {
    keys: ['traffic.consumer.concurrency'],
    schema: configSchemas.positiveInt.max(8, 'must be <= 8'),
    default: 2,
    doc: 'consumers this instance runs side by side, each its own member of the group (<name>, <name>-2, …): one decodes and maps its batch while another\'s insert is in the database',
  },
  batchSize: { keys: ['traffic.consumer.batch-size'], schema: configSchemas.positiveInt.max(5000, 'must be <= 5000'), default: 500, doc: 'events stored per database insert (about: reads take whole stream entries, each a batch of the publisher)' },
  batchMaxBytes: {
    keys: ['traffic.consumer.batch-max-bytes'],
    schema: configSchemas.positiveInt,
    default: 4194304,
    doc: 'about the most bytes of events stored per database insert (large bodies make smaller batches; bounds the logger\'s memory)',
  },
  batchMaxWaitMs: {
    keys: ['traffic.consumer.batch-max-wait-ms'],
    schema: configSchemas.nonNegativeInt,
    default: 20,
    doc: 'how long a batch keeps collecting after its first event arrived (0: store at once); bounds the added latency',
  },
  claimIdleMs: {
    keys: ['traffic.consumer.claim-idle-ms'],
    schema: configSchemas.positiveInt,
    default: 30000,
    doc: 'pending events idle this long (their consumer died) are claimed by a live instance',
  },
  deadLetterMaxLength: { keys: ['traffic.dead-letter.max-length'], schema: configSchemas.positiveInt, default: 10000, doc: 'approximate cap of the dead-letter stream (MAXLEN ~)' },
  retentionMaxAgeMs: {
    keys: ['traffic.retention.max-age'],
    schema: durationSchema,
    default: '7d',
    doc: 'exchanges older than this (by start time) are deleted; 7d, 12h, 30m, ms, or 0/off to keep forever',
  },
  retentionMaxRows: {
    keys: ['traffic.retention.max-rows'],
    schema: configSchemas.nonNegativeInt,
    default: 1000000,
    doc: 'keep at most this many exchanges (oldest stored deleted first); 0 for no limit',
  },
  retentionIntervalMs: { keys: ['traffic.retention.interval-ms'], schema: configSchemas.positiveInt, default: 60000, doc: 'how often the retention job runs (BullMQ repeatable job)' },
  countExactLimit: {
    keys: ['traffic.read.count-exact-limit'],
    schema: configSchemas.positiveInt,
    default: 10000,
    doc: 'totalElements is an exact count up to this many matches, a planner estimate above it (totalElementsExact=false)',
  },
  countTimeoutMs: {
    keys: ['traffic.read.count-timeout-ms'],
    schema: configSchemas.positiveInt,
    default: 10,
    doc: 'time allowed for counting a page\'s matches; a slower count (rare filter, no index) answers the planner estimate',
  },
  streamHeartbeatMs: { keys: ['traffic.stream.heartbeat-ms'], schema: configSchemas.positiveInt, default: 15000, doc: 'interval of SSE comment heartbeats that keep idle connections open' },
  streamPollMs: {
    keys: ['traffic.stream.poll-ms'],
    schema: configSchemas.positiveInt,
    default: 1000,
    doc: 'fallback poll of the live feed for new rows when no Redis announcement arrived (announcements wake it at once)',
  },
  streamReplayLimit: {
    keys: ['traffic.stream.replay-limit'],
    schema: configSchemas.positiveInt,
    default: 10000,
    doc: 'most rows replayed to a client resuming with Last-Event-ID; beyond it the client gets an overflow event',
  },
};

export type LoggerConfig = ReturnType<typeof loadLoggerConfig>;
export function loadLoggerConfig(options: LoadConfigOptions = {}) {
  return loadConfig(loggerConfigFields, options);
}
