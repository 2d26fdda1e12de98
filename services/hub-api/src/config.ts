import { allowedHostsField, bindAddressField, commonFields, configSchemas, datasourceField, loadConfig, redisField, redisPrefixField, type LoadConfigOptions } from '@mockyard/config';

export const hubConfigFields = {
  ...commonFields,
  port: { keys: ['hub.port'], env: ['HUB_PORT'], schema: configSchemas.port, default: 8082, doc: 'internal HTTP port of hub-api (public through the gateway)' },
  bindAddress: bindAddressField,
  allowedHosts: allowedHostsField,
  datasource: datasourceField,
  redisUrl: redisField,
  redisPrefix: redisPrefixField,
  localEngineUrl: { keys: ['hub.local-engine-url'], env: ['LOCAL_ENGINE_URL'], schema: configSchemas.httpUrl, default: 'http://127.0.0.1:9090', doc: 'URL of the embedded local engine (id "local")' },
  loggerUrl: { keys: ['hub.logger-url'], env: ['LOGGER_URL'], schema: configSchemas.httpUrl, default: 'http://127.0.0.1:8081', doc: 'URL of the traffic-logger read API, used by the MCP search_traffic tool' },
  apiKey: {
    keys: ['hub.security.api-key'],
    env: ['HUB_API_KEY'],
    schema: configSchemas.apiKey,
    secret: true,
    doc: 'API key required in X-Hub-Api-Key (or Authorization: Bearer) on /hub/admin and /mcp; unset = no key',
  },
  engineApiKey: {
    keys: ['hub.engine.api-key'],
    env: ['HUB_ENGINE_API_KEY'],
    schema: configSchemas.apiKey,
    secret: true,
    doc: 'sent as X-Hub-Api-Key on every call to an engine (admin calls and health probes); set it to the engines\' engine.admin-api-key; unset = no key',
  },
  loggerApiKey: {
    keys: ['hub.logger-api-key'],
    env: ['TRAFFIC_API_KEY'],
    schema: configSchemas.apiKey,
    secret: true,
    doc: 'sent as X-Api-Key on calls to the traffic-logger read API (the MCP search_traffic tool); set it to the logger\'s traffic.security.api-key; unset = no key',
  },
  engineTimeoutMs: { keys: ['hub.engine.timeout-ms'], env: ['HUB_ENGINE_TIMEOUT_MS'], schema: configSchemas.positiveInt, default: 5000, doc: 'milliseconds an engine has to answer one admin call before it counts as a failure (504)' },
  engineInsecureTls: { keys: ['hub.engine.insecure-tls'], env: ['HUB_ENGINE_INSECURE_TLS'], schema: configSchemas.boolean, default: false, doc: 'accept self-signed certificates of https engines (development only)' },
  breakerVolumeThreshold: { keys: ['hub.engine.breaker.volume-threshold'], schema: configSchemas.positiveInt, default: 5, doc: 'calls to an engine within the rolling window before its circuit breaker may open' },
  breakerErrorPercentage: { keys: ['hub.engine.breaker.error-threshold-percentage'], schema: configSchemas.positiveInt, default: 50, doc: 'percentage of failed calls (network errors, timeouts, 5xx) that opens an engine\'s breaker' },
  breakerResetMs: { keys: ['hub.engine.breaker.reset-timeout-ms'], schema: configSchemas.positiveInt, default: 10000, doc: 'milliseconds an open breaker waits before letting one trial call through (also the Retry-After)' },
  breakerWindowMs: { keys: ['hub.engine.breaker.rolling-window-ms'], schema: configSchemas.positiveInt, default: 10000, doc: 'rolling window over which the breaker counts failures' },
  healthProbeIntervalMs: { keys: ['hub.health.probe-interval-ms'], env: ['HUB_HEALTH_PROBE_INTERVAL_MS'], schema: configSchemas.positiveInt, default: 10000, doc: 'how often the repeatable BullMQ job probes every engine' },
  healthTimeoutMs: { keys: ['hub.health.timeout-ms'], schema: configSchemas.positiveInt, default: 2000, doc: 'timeout of one health probe of an engine' },
  offlineAfterMs: { keys: ['hub.health.offline-after-ms'], env: ['HUB_HEALTH_OFFLINE_AFTER_MS'], schema: configSchemas.positiveInt, default: 60000, doc: 'an engine not seen for this long is shown as OFFLINE (it stays registered)' },
  fanoutAttempts: { keys: ['hub.fanout.attempts'], schema: configSchemas.positiveInt, default: 3, doc: 'attempts per engine of a fan-out job before it is reported failed' },
  fanoutBackoffMs: { keys: ['hub.fanout.backoff-ms'], schema: configSchemas.positiveInt, default: 1000, doc: 'first retry delay of a fan-out job (exponential)' },
};

export type HubConfig = ReturnType<typeof loadHubConfig>;
export function loadHubConfig(options: LoadConfigOptions = {}) {
  return loadConfig(hubConfigFields, options);
}
