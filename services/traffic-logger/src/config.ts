import { bindAddressField, commonFields, configSchemas, datasourceField, loadConfig, redisField, redisPrefixField, type LoadConfigOptions } from '@mockyard/config';

export const loggerConfigFields = {
  ...commonFields,
  port: { keys: ['logger.port'], env: ['LOGGER_PORT'], schema: configSchemas.port, default: 8081, doc: 'internal HTTP port of traffic-logger (read API; public through the gateway)' },
  bindAddress: bindAddressField,
  datasource: datasourceField,
  redisUrl: redisField,
  redisPrefix: redisPrefixField,
};

export type LoggerConfig = ReturnType<typeof loadLoggerConfig>;
export function loadLoggerConfig(options: LoadConfigOptions = {}) {
  return loadConfig(loggerConfigFields, options);
}
