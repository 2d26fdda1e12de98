import { hostname } from 'node:os';
import { z } from 'zod';
import { bindAddressField, commonFields, configSchemas, loadConfig, redisPrefixField, type LoadConfigOptions } from '@mockyard/config';
import { refineOutboundEntries } from '@mockyard/service-kit';

export const engineConfigFields = {
  ...commonFields,
  port: { keys: ['engine.port'], env: ['ENGINE_PORT'], schema: configSchemas.port, default: 9090, doc: 'HTTP port of the engine (stubs and /__admin)' },
  bindAddress: bindAddressField,
  rootDir: { keys: ['engine.root-dir'], env: ['ENGINE_ROOT_DIR'], schema: z.string().min(1), default: '.data/engine', doc: 'folder with mappings/ and __files/ (WireMock layout)' },
  // Scaled engine containers share one config: the container hostname keeps their names apart.
  name: { keys: ['engine.name'], env: ['ENGINE_NAME'], schema: z.string().min(1), default: hostname(), doc: 'name the engine registers under with the hub (default: the host name)' },
  publicUrl: { keys: ['engine.public-url'], env: ['ENGINE_PUBLIC_URL'], schema: z.string().optional(), doc: 'URL the hub reaches this engine at (default http://<hostname>:<port>)' },
  hubUrl: { keys: ['engine.hub-url'], env: ['HUB_URL'], schema: configSchemas.httpUrl.optional(), doc: 'hub base URL to self-register with (unset: no registration)' },
  hubApiKey: { keys: ['engine.hub-api-key'], env: ['HUB_API_KEY'], schema: configSchemas.apiKey, secret: true, doc: 'sent as X-Hub-Api-Key when registering with the hub' },
  heartbeatMs: { keys: ['engine.heartbeat-ms'], env: ['ENGINE_HEARTBEAT_MS'], schema: configSchemas.positiveInt, default: 30000, doc: 'milliseconds between registration heartbeats to the hub' },
  adminApiKey: { keys: ['engine.admin-api-key'], env: ['ENGINE_ADMIN_API_KEY'], schema: configSchemas.apiKey, secret: true, doc: 'when set, /__admin requires it in X-Hub-Api-Key or Authorization: Bearer (default: open, like WireMock)' },
  journalEnabled: { keys: ['engine.journal.enabled'], env: ['ENGINE_JOURNAL_ENABLED'], schema: configSchemas.boolean, default: true, doc: 'keep a request journal (WireMock --no-request-journal = false)' },
  journalMaxEntries: { keys: ['engine.journal.max-entries'], env: ['ENGINE_JOURNAL_MAX_ENTRIES'], schema: configSchemas.positiveInt, default: 10000, doc: 'journal size; the oldest entries are dropped beyond it' },
  globalTemplating: { keys: ['engine.global-response-templating'], env: ['ENGINE_GLOBAL_RESPONSE_TEMPLATING'], schema: configSchemas.boolean, default: false, doc: 'template every response, not only stubs with transformers ["response-template"]' },
  permittedSystemKeys: { keys: ['engine.templating.permitted-system-keys'], env: ['ENGINE_PERMITTED_SYSTEM_KEYS'], schema: configSchemas.csv, default: 'wiremock.*', doc: 'comma-separated regexes of environment variable names the systemValue template helper may read (WireMock --permitted-system-keys)' },
  proxyTimeoutMs: { keys: ['engine.proxy-timeout-ms'], env: ['ENGINE_PROXY_TIMEOUT_MS'], schema: configSchemas.positiveInt, default: 30000, doc: 'milliseconds a proxied request may wait for the upstream' },
  outboundAllow: { keys: ['engine.outbound.allow'], env: ['ENGINE_OUTBOUND_ALLOW'], schema: configSchemas.csv.superRefine(refineOutboundEntries), default: '', doc: 'comma-separated hosts, *.suffix wildcards, IPs and CIDRs that proxy stubs, recordings and webhooks may reach (WireMock --allow-proxy-targets); empty = any (loopback included) not denied' },
  outboundDeny: { keys: ['engine.outbound.deny'], env: ['ENGINE_OUTBOUND_DENY'], schema: configSchemas.csv.superRefine(refineOutboundEntries), default: '', doc: 'comma-separated hosts, *.suffix wildcards, IPs and CIDRs proxy stubs, recordings and webhooks may not reach (checked on the name and on every address it resolves to; wins over allow; WireMock --deny-proxy-targets)' },
  outboundAllowLinkLocal: { keys: ['engine.outbound.allow-link-local'], env: ['ENGINE_OUTBOUND_ALLOW_LINK_LOCAL'], schema: configSchemas.boolean, default: false, doc: 'let proxy stubs, recordings and webhooks reach link-local and cloud metadata addresses (169.254.0.0/16, fe80::/10, fd00:ec2::254, 100.100.100.200, 168.63.129.16)' },
  maxAdminBodyBytes: { keys: ['engine.admin.max-body-bytes'], schema: configSchemas.positiveInt, default: 50 * 1024 * 1024, doc: 'largest /__admin request body (imports, body files)' },
  maxRequestBodyBytes: { keys: ['engine.max-request-body-bytes'], schema: configSchemas.positiveInt, default: 50 * 1024 * 1024, doc: 'largest request body a stub request may carry; larger ones get 413' },
  redisUrl: { keys: ['redis.url'], env: ['REDIS_URL'], schema: configSchemas.redisUrl.optional(), secret: true, doc: 'Redis to publish served requests to the traffic stream (unset: not published)' },
  redisPrefix: redisPrefixField,
};

export type EngineConfig = ReturnType<typeof loadEngineConfig>;
export function loadEngineConfig(options: LoadConfigOptions = {}) {
  return loadConfig(engineConfigFields, options);
}
