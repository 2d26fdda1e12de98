import { z } from 'zod';
import { bindAddressField, commonFields, configSchemas, datasourceField, loadConfig, redisField, redisPrefixField, type LoadConfigOptions } from '@mockyard/config';

export const hubConfigFields = {
  ...commonFields,
  port: { keys: ['hub.port'], env: ['HUB_PORT'], schema: configSchemas.port, default: 8082, doc: 'internal HTTP port of hub-api (public through the gateway)' },
  bindAddress: bindAddressField,
  datasource: datasourceField,
  redisUrl: redisField,
  redisPrefix: redisPrefixField,
  localEngineUrl: { keys: ['hub.local-engine-url'], env: ['LOCAL_ENGINE_URL'], schema: configSchemas.httpUrl, default: 'http://127.0.0.1:9090', doc: 'URL of the embedded local engine (id "local")' },
  apiKey: {
    keys: ['hub.security.api-key'],
    env: ['HUB_API_KEY'],
    schema: z.string().refine((s) => s.trim().length > 0, 'must not be blank (unset it to run without a key)').optional(),
    secret: true,
    doc: 'API key required in X-Hub-Api-Key on /hub/admin and /mcp; unset = no key',
  },
};

export type HubConfig = ReturnType<typeof loadHubConfig>;
export function loadHubConfig(options: LoadConfigOptions = {}) {
  return loadConfig(hubConfigFields, options);
}
