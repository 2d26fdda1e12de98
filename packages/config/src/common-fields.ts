import { allowedHostEntryProblem } from '@mockyard/contracts';
import { z } from 'zod';
import { configSchemas, type ConfigField } from './load-config';
import { parseDatasourceUrl, type Datasource } from './datasource';

const LEVELS: Record<string, string> = {
  TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', WARNING: 'warn', ERROR: 'error', FATAL: 'fatal', OFF: 'silent', SILENT: 'silent',
};

export const logLevelSchema = z
  .string()
  .transform((s) => LEVELS[s.trim().toUpperCase()])
  .refine((v) => v !== undefined, 'must be one of TRACE, DEBUG, INFO, WARN, ERROR, FATAL, OFF') as unknown as z.ZodType<
  'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent'
>;

export const datasourceSchema = z.string().transform((raw, ctx): Datasource => {
  try {
    return parseDatasourceUrl(raw);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
    return z.NEVER;
  }
});

/** Fields every service shares; each service's config.ts spreads the ones it needs. */
export const commonFields = {
  logLevel: {
    keys: ['logging.level.mockyard', 'logging.level.root'],
    env: ['LOG_LEVEL', 'LOGGING_LEVEL_MOCKYARD'],
    schema: logLevelSchema,
    default: 'INFO',
    doc: 'log level of Mockyard\'s own package: TRACE, DEBUG, INFO, WARN, ERROR or OFF',
  },
  shutdownTimeoutMs: {
    keys: ['server.shutdown.timeout-ms'],
    schema: configSchemas.positiveInt,
    default: 10000,
    doc: 'milliseconds allowed for draining on SIGTERM before the process exits anyway',
  },
  heapGrowingPercent: {
    keys: ['node.heap-growing-percent'],
    env: ['NODE_HEAP_GROWING_PERCENT'],
    schema: configSchemas.nonNegativeInt,
    default: 100,
    doc: 'how far (in %) the V8 old generation may grow past what was live after a major collection before the next one (V8 --heap-growing-percent, which NODE_OPTIONS does not take); lower holds RSS closer to the live heap for more collections, 0 = V8\'s own heuristic (up to 300%)',
  },
} satisfies Record<string, ConfigField>;

export const datasourceField = {
  keys: ['spring.datasource.url', 'database.url'],
  env: ['SPRING_DATASOURCE_URL', 'DATABASE_URL'],
  schema: datasourceSchema,
  default: 'postgresql://postgres@127.0.0.1:5432/mockyard',
  secret: true,
  doc: 'jdbc:postgresql://host:port/db?user=…&password=…, postgresql://…, or jdbc:h2:mem:… / memory:// for the embedded database; connect_timeout=<s> (JDBC connectTimeout) bounds connecting and waiting for a pooled connection, default 10, 0 for none (past it: 503)',
} satisfies ConfigField;

export const redisField = {
  keys: ['redis.url', 'spring.data.redis.url'],
  env: ['REDIS_URL'],
  schema: configSchemas.redisUrl,
  default: 'redis://127.0.0.1:6379',
  secret: true,
  doc: 'redis://[user:password@]host:port[/db]',
} satisfies ConfigField;

export const bindAddressField = {
  keys: ['server.address'],
  env: ['SERVER_ADDRESS', 'BIND_ADDRESS'],
  schema: z.string().min(1),
  default: '127.0.0.1',
  doc: 'interface to listen on: 127.0.0.1 for local use, 0.0.0.0 in containers',
} satisfies ConfigField;

/**
 * Host names a service answers to besides IP addresses, localhost and names without a dot (DNS rebinding
 * defence, see AllowedHosts in @mockyard/contracts). The same list goes to every service a browser reaches.
 */
export const allowedHostsField = {
  keys: ['server.allowed-hosts'],
  env: ['ALLOWED_HOSTS', 'SERVER_ALLOWED_HOSTS'],
  schema: configSchemas.csv.superRefine((entries, ctx) => {
    for (const entry of entries) {
      const problem = allowedHostEntryProblem(entry);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }
  }),
  default: '',
  doc: 'comma-separated host names (and *.suffix wildcards) requests may name in their Host header besides IP addresses, localhost, *.localhost, names without a dot (Compose service names) and this machine\'s name; others get 403 (DNS rebinding protection). Set it to the name users reach the stack by (mockyard.team.example) on the gateway, traffic-logger, hub-api and web (ALLOWED_HOSTS); * = any',
} satisfies ConfigField;

export const redisPrefixField = {
  keys: ['redis.prefix'],
  env: ['REDIS_PREFIX'],
  schema: z.string().regex(/^[\w.:-]+$/, 'must be letters, digits, _ . : -'),
  default: 'mockyard',
  doc: 'namespace for every Redis key (streams, queues) so stacks can share one Redis',
} satisfies ConfigField;
