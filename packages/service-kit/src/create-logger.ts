import pino, { type Logger, type DestinationStream } from 'pino';

export type { Logger };

/** Header and field names that never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["proxy-authorization"]',
  'req.headers["x-hub-api-key"]',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["proxy-authorization"]',
  'headers["set-cookie"]',
  'headers["x-hub-api-key"]',
  'headers["x-api-key"]',
  // one level down: {request: {headers}}, {options: {apiKey}}, an axios error's config.headers
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers["proxy-authorization"]',
  '*.headers["set-cookie"]',
  '*.headers["x-hub-api-key"]',
  '*.headers["X-Hub-Api-Key"]',
  '*.headers["x-api-key"]',
  'err.config.headers',
  'apiKey',
  '*.apiKey',
  'password',
  '*.password',
  'token',
  '*.token',
  'secret',
  '*.secret',
  'databaseUrl',
  'redisUrl',
  '*.databaseUrl',
  '*.redisUrl',
];

/** JSON-lines logger with the service name on every line and secrets redacted. */
export function createLogger(options: { service: string; level?: string; destination?: DestinationStream }): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: options.service },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination,
  );
}
