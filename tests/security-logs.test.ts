// Secrets that travel through the stack never reach a service's log, and captured exchanges show them
// as [redacted]. The whole topology runs as processes (scripts/stack.mjs on free ports) at TRACE level with
// the hub key, the engine admin key and the dashboard's server-held key set; every line any service writes
// to stdout/stderr is collected and searched for each secret value.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request as httpRequest } from 'node:http';
import { type RunningStack, freePort, startStack } from '@mockyard/testkit';

jest.setTimeout(120_000);

// Distinctive values: a hit in the logs can only be one of these secrets.
const SECRETS = {
  hubKey: 'hubkey-7f3a9c1e55d24b08',
  trafficKey: 'traffickey-3b8e1f6a0c9d',
  wrongTrafficKey: 'wrongtraffickey-e2c5a8d7f1',
  wrongProxyPassword: 'wrongproxypass-6a1d9e3b7c',
  engineKey: 'enginekey-c2b81d0e9a6f4473',
  bearer: 'bearer-tok-91d3e6f0a8b2',
  cookie: 'sessioncookie-4e7a0c9d1f',
  xHubKeyOnTraffic: 'trafficxhub-0b5d8e2c7a',
  setCookie: 'setcookie-6a1f9e3d2b',
  proxyPassword: 'proxypass-83c0d6b4e1',
  bodyPassword: 'bodypass-5d2e8a1c9f',
  queryPassword: 'querypass-2f9b7e4c1a',
  wrongHubKey: 'wronghubkey-a7e3c91d5b',
  wrongEngineKey: 'wrongenginekey-d4b6f0a2e8',
  sessionKey: 'dashboardsession-9c3e7b1a5f',
};

let upstream: Server;
let upstreamUrl: string;
const seenByUpstream: Record<string, string | string[] | undefined>[] = [];
let stack: RunningStack;
let output = '';
let stopped = false;
let pageHeaders: Headers;

/** An HTTP call through the forward-proxy port (absolute-form), as an HTTP_PROXY client makes it. */
function viaForwardProxy(proxyPort: number, url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: proxyPort, method: 'GET', path: url, headers: { ...headers, host: new URL(url).host }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

async function eventually<T>(fn: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  upstream = createServer((req, res) => {
    seenByUpstream.push(req.headers);
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': `token=${SECRETS.setCookie}; HttpOnly` });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  stack = await startStack({
    LOG_LEVEL: 'TRACE',
    HUB_API_KEY: SECRETS.hubKey,
    HUB_ENGINE_API_KEY: SECRETS.engineKey,
    ENGINE_ADMIN_API_KEY: SECRETS.engineKey,
    TRAFFIC_API_KEY: SECRETS.trafficKey,
    // the forward proxy's and /proxy's key (proxy.security.api-key): every proxied call below sends it
    PROXY_API_KEY: SECRETS.proxyPassword,
  });

  const gw = stack.gatewayUrl;
  const hubHeaders = { 'X-Hub-Api-Key': SECRETS.hubKey, 'content-type': 'application/json' };
  const basic = Buffer.from(`user:${SECRETS.proxyPassword}`).toString('base64');
  // 1. /proxy with credentials in headers, body and query
  const proxied = await fetch(`${gw}/proxy?url=${encodeURIComponent(`${upstreamUrl}/login?password=${SECRETS.queryPassword}`)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRETS.bearer}`, cookie: `sid=${SECRETS.cookie}`, 'x-hub-api-key': SECRETS.xHubKeyOnTraffic, 'proxy-authorization': `Basic ${basic}`, 'content-type': 'application/json' },
    body: JSON.stringify({ user: 'u', password: SECRETS.bodyPassword }),
  });
  expect(proxied.status).toBe(200);
  // …and to a target that refuses, so the failure paths log too (the detail names the target URL)
  const closedPort = await freePort();
  const failed = await fetch(`${gw}/proxy?url=${encodeURIComponent(`http://127.0.0.1:${closedPort}/fail?password=${SECRETS.queryPassword}`)}`, {
    headers: { authorization: `Bearer ${SECRETS.bearer}`, 'proxy-authorization': `Basic ${basic}` },
  });
  expect(failed.status).toBe(502);
  // 2. the forward proxy with proxy credentials, and with wrong ones
  expect(await viaForwardProxy(stack.ports.SERVICE_PROXY_PORT, `${upstreamUrl}/forwarded-refused`, { 'proxy-authorization': `Basic ${Buffer.from(`user:${SECRETS.wrongProxyPassword}`).toString('base64')}` })).toBe(407);
  expect(await viaForwardProxy(stack.ports.SERVICE_PROXY_PORT, `${upstreamUrl}/forwarded`, { 'proxy-authorization': `Basic ${basic}`, authorization: `Bearer ${SECRETS.bearer}` })).toBe(200);
  expect(await viaForwardProxy(stack.ports.SERVICE_PROXY_PORT, `http://127.0.0.1:${closedPort}/fail-forward?password=${SECRETS.queryPassword}`, { 'proxy-authorization': `Basic ${basic}` })).toBe(502);
  // 3. the hub, right and wrong key; through it the engine (its admin key), and the health probes
  const stub = { request: { method: 'GET', urlPath: '/logged-secret' }, response: { status: 200 } };
  expect((await fetch(`${gw}/hub/admin/mappings`, { method: 'POST', headers: hubHeaders, body: JSON.stringify(stub) })).status).toBe(201);
  expect((await fetch(`${gw}/hub/admin/mappings`, { headers: { 'X-Hub-Api-Key': SECRETS.wrongHubKey } })).status).toBe(401);
  expect((await fetch(`${gw}/hub/admin/mappings`, { headers: { authorization: `Bearer ${SECRETS.wrongHubKey}` } })).status).toBe(401);
  expect((await fetch(`${gw}/hub/admin/registry/health-check`, { method: 'POST', headers: hubHeaders })).status).toBe(200);
  // 4. the engine's own admin API, right and wrong key
  expect((await fetch(`${stack.engineUrl}/__admin/mappings`, { headers: { 'X-Hub-Api-Key': SECRETS.engineKey } })).status).toBe(200);
  expect((await fetch(`${stack.engineUrl}/__admin/mappings`, { headers: { 'X-Hub-Api-Key': SECRETS.wrongEngineKey } })).status).toBe(401);
  // 5. MCP with the key as a bearer token
  const mcp = await fetch(`${gw}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRETS.hubKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'security-test', version: '1' } } }),
  });
  expect(mcp.status).toBe(200);
  await mcp.text();
  // 6. the traffic log's key (traffic.security.api-key), wrong in either header
  expect((await fetch(`${gw}/api/requests`, { headers: { 'X-Api-Key': SECRETS.wrongTrafficKey } })).status).toBe(401);
  expect((await fetch(`${gw}/api/requests`, { headers: { authorization: `Bearer ${SECRETS.wrongTrafficKey}` } })).status).toBe(401);
  // 7. the dashboard: a key entered in the session, then a call through its forwarder
  const session = await fetch(`${gw}/bff/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiKey: SECRETS.sessionKey }) });
  expect(session.status).toBe(204);
  const cookie = session.headers.get('set-cookie')!.split(';')[0];
  expect((await fetch(`${gw}/bff/hub/admin/mappings`, { headers: { cookie } })).status).toBe(200);
  // a page render through the gateway, with a credential-looking cookie
  const pageThroughGateway = await fetch(`${gw}/stubs`, { headers: { cookie: `sid=${SECRETS.cookie}` } });
  expect(pageThroughGateway.status).toBe(200);
  pageHeaders = pageThroughGateway.headers;
}, 180_000);

afterAll(async () => {
  if (!stopped) await stack?.stop();
  await new Promise((resolve) => upstream?.close(resolve));
});

describe('the dashboard through the gateway', () => {
  it('keeps its security headers (the gateway relays them)', () => {
    expect(pageHeaders.get('content-security-policy')).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'.*frame-ancestors 'none'/);
    expect(pageHeaders.get('x-content-type-options')).toBe('nosniff');
    expect(pageHeaders.get('x-frame-options')).toBe('DENY');
  });
});

describe('captured exchanges', () => {
  it('reached the target with the real values (the secrets did travel)', () => {
    expect(seenByUpstream[0]).toMatchObject({ authorization: `Bearer ${SECRETS.bearer}`, cookie: `sid=${SECRETS.cookie}`, 'x-hub-api-key': SECRETS.xHubKeyOnTraffic });
  });

  it('are stored with credentials shown as [redacted]', async () => {
    const headers = { 'X-Api-Key': SECRETS.trafficKey };
    const stored = await eventually(async () => {
      const page = (await (await fetch(`${stack.gatewayUrl}/api/requests?url=/login`, { headers })).json()) as { content: { id: string }[] };
      return page.content[0];
    });
    const exchange = (await (await fetch(`${stack.gatewayUrl}/api/exchanges/${stored.id}`, { headers })).json()) as {
      request: { headers: Record<string, string> };
      response: { headers: Record<string, string | string[]> };
    };
    expect(exchange.request.headers).toMatchObject({ authorization: '[redacted]', cookie: '[redacted]', 'x-hub-api-key': '[redacted]' });
    expect(JSON.stringify(exchange.response.headers['set-cookie'])).toContain('[redacted]');
    const text = JSON.stringify(exchange.request.headers) + JSON.stringify(exchange.response.headers);
    for (const secret of [SECRETS.bearer, SECRETS.cookie, SECRETS.xHubKeyOnTraffic, SECRETS.setCookie]) expect(text).not.toContain(secret);

    const forwarded = await eventually(async () => {
      const page = (await (await fetch(`${stack.gatewayUrl}/api/requests?url=/forwarded`, { headers })).json()) as { content: { id: string }[] };
      return page.content[0];
    });
    const forwardedExchange = (await (await fetch(`${stack.gatewayUrl}/api/exchanges/${forwarded.id}`, { headers })).json()) as { request: { headers: Record<string, string> } };
    expect(forwardedExchange.request.headers).toMatchObject({ 'proxy-authorization': '[redacted]', authorization: '[redacted]' });
  });
});

describe('service logs', () => {
  beforeAll(async () => {
    // stopping flushes every service's last lines (shutdown logs included) into the collected output
    stopped = true;
    await stack.stop();
    output = stack.output();
    if (process.env.SECURITY_LOGS_DUMP) require('node:fs').writeFileSync(process.env.SECURITY_LOGS_DUMP, output);
  }, 60_000);

  it('were collected from every service at TRACE level', () => {
    for (const service of ['engine', 'traffic-logger', 'hub-api', 'proxy-gateway', 'web']) expect(output).toContain(`${service.padEnd(15)}|`);
    expect(output.split('\n').length).toBeGreaterThan(50);
  });

  it.each(Object.entries(SECRETS))('never contain the %s value', (_name, secret) => {
    const lines = output.split('\n').filter((line) => line.includes(secret));
    expect(lines).toEqual([]);
  });

  it.each([
    ['a bearer token', /Bearer\s+(?!\[redacted\])[A-Za-z0-9._~+/-]{8,}/],
    ['basic credentials', /Basic\s+[A-Za-z0-9+/=]{8,}/],
  ])('contain no %s of any value', (_what, pattern) => {
    expect(output.split('\n').filter((line) => pattern.test(line))).toEqual([]);
  });
});
