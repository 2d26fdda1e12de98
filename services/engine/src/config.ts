import { z } from 'zod';
import { bindAddressField, commonFields, configSchemas, loadConfig, redisPrefixField, type LoadConfigOptions } from '@mockyard/config';

export const engineConfigFields = {
  ...commonFields,
  port: { keys: ['engine.port'], env: ['ENGINE_PORT'], schema: configSchemas.port, default: 9090, doc: 'HTTP port of the engine (stubs and /__admin)' },
  bindAddress: bindAddressField,
  rootDir: { keys: ['engine.root-dir'], env: ['ENGINE_ROOT_DIR'], schema: z.string().min(1), default: '.data/engine', doc: 'folder with mappings/ and __files/ (WireMock layout)' },
  name: { keys: ['engine.name'], env: ['ENGINE_NAME'], schema: z.string().min(1), default: 'local', doc: 'name the engine registers under' },
  publicUrl: { keys: ['engine.public-url'], env: ['ENGINE_PUBLIC_URL'], schema: z.string().optional(), doc: 'URL the hub reaches this engine at (default http://<hostname>:<port>)' },
  hubUrl: { keys: ['engine.hub-url'], env: ['HUB_URL'], schema: configSchemas.httpUrl.optional(), doc: 'hub base URL to self-register with (unset: no registration)' },
  redisUrl: { keys: ['redis.url'], env: ['REDIS_URL'], schema: configSchemas.redisUrl.optional(), secret: true, doc: 'Redis to publish served requests to the traffic stream (unset: not published)' },
  redisPrefix: redisPrefixField,
};

export type EngineConfig = ReturnType<typeof loadEngineConfig>;
export function loadEngineConfig(options: LoadConfigOptions = {}) {
  return loadConfig(engineConfigFields, options);
}
