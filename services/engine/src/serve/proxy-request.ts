import http from 'node:http';
import https from 'node:https';
import type { MatchableRequest } from '@mockyard/matching';
import { POOLED_AGENT_OPTIONS, type OutboundPolicy } from '@mockyard/service-kit';
import type { ProxyTarget } from './resolve-response';

export interface UpstreamResponse {
  status: number;
  statusMessage?: string;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** Hop-by-hop headers (RFC 9110 §7.6.1) plus the ones the engine recomputes. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authorization', 'proxy-authenticate', 'host', 'content-length']);

/** Target URL: base + the request's path and query, with `proxyUrlPrefixToRemove` cut from the front. */
export function buildTargetUrl(target: ProxyTarget, requestUrl: string): URL {
  let path = requestUrl;
  if (target.prefixToRemove && path.startsWith(target.prefixToRemove)) path = path.slice(target.prefixToRemove.length);
  if (!path.startsWith('/') && path !== '') path = '/' + path;
  const base = target.baseUrl.endsWith('/') ? target.baseUrl.slice(0, -1) : target.baseUrl;
  return new URL(base + path);
}

/** Headers sent upstream: the client's minus hop-by-hop and removed ones, plus additional ones. */
export function buildUpstreamHeaders(request: MatchableRequest, target: ProxyTarget, url: URL): Record<string, string[] | string> {
  const remove = new Set(target.removeHeaders.map((h) => h.toLowerCase()));
  const headers: Record<string, string[] | string> = {};
  for (const [name, values] of Object.entries(request.headers)) {
    if (HOP_BY_HOP.has(name) || remove.has(name)) continue;
    headers[name] = values;
  }
  headers['host'] = url.host;
  for (const [name, value] of Object.entries(target.additionalHeaders)) headers[name.toLowerCase()] = value;
  if (request.body.length > 0) headers['content-length'] = String(request.body.length);
  return headers;
}

/** Where proxy stubs connect: the policy, and keep-alive pools whose new sockets resolve through it. */
export interface ProxyConnections {
  outbound: OutboundPolicy;
  agents: { http: http.Agent; https: https.Agent };
  /** Closes the pooled sockets. */
  close(): void;
}

/**
 * Pools of the engine's own (not Node's global agent): a pooled socket is reused without a lookup, so a
 * socket opened under another policy must never be in them.
 */
export function createProxyConnections(outbound: OutboundPolicy): ProxyConnections {
  // as Node's global agent, plus the policy's lookup for every new socket
  const options = { ...POOLED_AGENT_OPTIONS, lookup: outbound.lookup };
  const agents = { http: new http.Agent(options), https: new https.Agent(options) };
  return {
    outbound,
    agents,
    close: () => {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

/**
 * Sends the request upstream and buffers the answer; aborted with `signal` (the client went away). A target
 * the policy refuses rejects with OutboundDeniedError before any connection: an IP literal at once, a name
 * when it resolves (the socket connects to the addresses checked, never resolving again).
 */
export function forwardRequest(request: MatchableRequest, target: ProxyTarget, signal: AbortSignal, timeoutMs: number, connections: ProxyConnections): Promise<UpstreamResponse> {
  const url = buildTargetUrl(target, request.url);
  const isHttps = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    connections.outbound.assertHost(url.hostname);
    const options = { method: request.method, headers: buildUpstreamHeaders(request, target, url), signal, timeout: timeoutMs };
    const onResponse = (res: http.IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const headers: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(res.headersDistinct)) {
          if (HOP_BY_HOP.has(name) || value === undefined) continue;
          headers[name] = value.length === 1 ? value[0] : value;
        }
        resolve({ status: res.statusCode ?? 502, statusMessage: res.statusMessage, headers, body: Buffer.concat(chunks) });
      });
    };
    const upstream = isHttps ? https.request(url, { ...options, agent: connections.agents.https }, onResponse) : http.request(url, { ...options, agent: connections.agents.http }, onResponse);
    upstream.on('timeout', () => upstream.destroy(new Error(`upstream did not answer within ${timeoutMs} ms`)));
    upstream.on('error', reject);
    upstream.end(request.body.length > 0 ? request.body : undefined);
  });
}
