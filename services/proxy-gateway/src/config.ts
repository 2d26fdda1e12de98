import { allowedHostsField, bindAddressField, commonFields, configSchemas, loadConfig, redisField, redisPrefixField, type LoadConfigOptions } from '@mockyard/config';
import { refineOutboundEntries } from '@mockyard/service-kit';
import { z } from 'zod';

const outboundEntries = configSchemas.csv.superRefine(refineOutboundEntries);

/** `auto` (one per CPU, at most MAX_AUTO_WORKERS) or a whole number from 1 to 64. */
const workerCount = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
  z.union([z.literal('auto'), z.coerce.number({ error: 'must be auto or a number' }).int('must be a whole number').min(1, 'must be >= 1').max(64, 'must be <= 64')]),
) as z.ZodType<'auto' | number>;

export const DEFAULT_REDACTED_HEADERS = 'authorization,proxy-authorization,cookie,set-cookie,x-hub-api-key,x-api-key';

export const gatewayConfigFields = {
  ...commonFields,
  port: { keys: ['server.port'], env: ['SERVER_PORT'], schema: configSchemas.port, default: 8080, doc: 'public HTTP port: /proxy, /api, /hub, /actuator, /mcp and the dashboard' },
  proxyPort: { keys: ['service.proxy.port'], env: ['SERVICE_PROXY_PORT'], schema: configSchemas.port, default: 8888, doc: 'forward-proxy port for HTTP_PROXY clients and CONNECT tunnels' },
  bindAddress: bindAddressField,
  allowedHosts: allowedHostsField,
  redisUrl: redisField,
  redisPrefix: redisPrefixField,
  loggerUrl: { keys: ['gateway.logger-url'], env: ['LOGGER_URL'], schema: configSchemas.httpUrl, default: 'http://127.0.0.1:8081', doc: 'traffic-logger base URL (/api/*)' },
  hubUrl: { keys: ['gateway.hub-url'], env: ['HUB_API_URL'], schema: configSchemas.httpUrl, default: 'http://127.0.0.1:8082', doc: 'hub-api base URL (/hub/*, /actuator/*, /mcp)' },
  webUrl: { keys: ['gateway.web-url'], env: ['WEB_URL'], schema: configSchemas.httpUrl, default: 'http://127.0.0.1:3000', doc: 'dashboard base URL (everything else)' },
  proxyTimeoutMs: { keys: ['proxy.timeout-ms'], schema: configSchemas.positiveInt, default: 30000, doc: 'milliseconds to wait for a target\'s response headers before answering 504' },
  proxyIdleTimeoutMs: {
    keys: ['proxy.idle-timeout-ms'],
    schema: configSchemas.nonNegativeInt,
    default: 45000,
    doc: 'close a client connection on 8080/8888 after this many ms with nothing read or written (a client that never reads its response: Node gives a stalled write two periods); keep it above proxy.timeout-ms; 0 = never. CONNECT tunnels are not affected',
  },
  proxyHeadersTimeoutMs: {
    keys: ['proxy.headers-timeout-ms'],
    schema: configSchemas.positiveInt,
    default: 20000,
    doc: 'milliseconds a client on 8080/8888 may take to send a request\'s headers before it gets 408 and is closed (slow-header clients, "slowloris"; also a new connection that sends no request at all, whatever proxy.idle-timeout-ms says); checked every quarter of it',
  },
  proxyTrustForwardedFor: { keys: ['proxy.trust-forwarded-for'], schema: configSchemas.boolean, default: false, doc: 'take the logged client address from X-Forwarded-For (only behind a trusted proxy)' },
  proxyVerifyTls: { keys: ['proxy.verify-tls'], schema: configSchemas.boolean, default: true, doc: 'verify https targets\' certificates (false accepts self-signed targets)' },
  workers: {
    keys: ['proxy.workers'],
    env: ['PROXY_WORKERS'],
    schema: workerCount,
    default: 'auto',
    doc: 'gateway processes sharing ports 8080/8888 (Node cluster), like nginx\'s worker_processes: auto = one per CPU the process may use (a cgroup CPU quota on its cgroup or a parent, such as docker --cpus or systemd CPUQuota=, counts), at most 4; 1 = a single process. Each worker has its own upstream pool and spool file; /health/ready sums their capture counters',
  },
  proxyApiKey: {
    keys: ['proxy.security.api-key'],
    env: ['PROXY_API_KEY'],
    schema: configSchemas.apiKey,
    secret: true,
    doc: 'when set, /proxy and the forward-proxy port (requests and CONNECT) need it in Proxy-Authorization: Basic with any user name and the key as password (HTTP_PROXY=http://user:<key>@host:8888) or Bearer <key>; 407 problem otherwise. The header is never forwarded; unset = no key',
  },
  proxyMaxSockets: { keys: ['proxy.max-sockets'], schema: configSchemas.positiveInt, default: 256, doc: 'keep-alive upstream connections per target origin (per worker, for each of its two clients: bodyless plain-http requests, and the rest)' },
  outboundAllow: { keys: ['proxy.outbound.allow'], env: ['PROXY_OUTBOUND_ALLOW'], schema: outboundEntries, default: '', doc: 'comma-separated hosts, *.suffix wildcards, IPs and CIDRs /proxy and the forward proxy may reach; empty = any (loopback included) not denied' },
  outboundDeny: { keys: ['proxy.outbound.deny'], env: ['PROXY_OUTBOUND_DENY'], schema: outboundEntries, default: '', doc: 'comma-separated hosts, *.suffix wildcards, IPs and CIDRs refused with 403 (checked on the name and on every address it resolves to); wins over allow' },
  outboundAllowLinkLocal: { keys: ['proxy.outbound.allow-link-local'], env: ['PROXY_OUTBOUND_ALLOW_LINK_LOCAL'], schema: configSchemas.boolean, default: false, doc: 'let /proxy and the forward proxy reach link-local and cloud metadata addresses (169.254.0.0/16, fe80::/10, fd00:ec2::254, 100.100.100.200, 168.63.129.16)' },
  captureEnabled: { keys: ['capture.enabled'], schema: configSchemas.boolean, default: true, doc: 'publish every exchange to the traffic stream' },
  captureMaxBodyBytes: { keys: ['capture.max-body-bytes'], schema: configSchemas.nonNegativeInt, default: 262144, doc: 'bytes of each request/response body kept in the log (the rest is marked truncated)' },
  captureRedactHeaders: { keys: ['capture.redact-headers'], schema: configSchemas.csv, default: DEFAULT_REDACTED_HEADERS, doc: 'comma-separated header names whose values are logged as [redacted] (empty: none)' },
  captureStreamMaxLength: { keys: ['capture.stream.max-length'], schema: configSchemas.positiveInt, default: 100000, doc: 'approximate cap of the Redis traffic stream, in events (entries carry batches: XADD MAXLEN ~ this / events in the entry)' },
  captureStreamMaxBytes: { keys: ['capture.stream.max-bytes'], schema: configSchemas.positiveInt, default: 512 * 1024 * 1024, doc: 'approximate cap of the Redis traffic stream, in bytes of events: with large captured bodies it binds before the cap in events (100,000 events of 100 KiB would be 10 GB of Redis). The stream is the logger\'s backlog: during a logger or database outage, events past either cap are trimmed unstored' },
  captureBufferEvents: { keys: ['capture.buffer.max-events'], schema: configSchemas.positiveInt, default: 10000, doc: 'events held in memory before publishing; past it they go to the spool' },
  captureBufferBytes: { keys: ['capture.buffer.max-bytes'], schema: configSchemas.positiveInt, default: 67108864, doc: 'bytes of events held in memory before publishing; past it they go to the spool' },
  captureSpoolDir: { keys: ['capture.spool.dir'], schema: z.string().min(1), default: 'data/spool', doc: 'folder of the local spool file used while Redis is unreachable' },
  captureSpoolMaxBytes: { keys: ['capture.spool.max-bytes'], schema: configSchemas.positiveInt, default: 268435456, doc: 'unreplayed bytes the spool may hold; events past it are dropped (counted and logged)' },
};

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;
export function loadGatewayConfig(options: LoadConfigOptions = {}) {
  return loadConfig(gatewayConfigFields, options);
}
