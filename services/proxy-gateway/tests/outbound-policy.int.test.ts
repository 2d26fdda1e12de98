import http from 'node:http';
import net from 'node:net';
import { ConfigError } from '@mockyard/config';
import { createTestRedis, type TestRedis } from '@mockyard/testkit';
import { loadGatewayConfig } from '../src/config';
import { call, json } from './support/http-call';
import { startTestGateway } from './support/start-test-gateway';
import { TrafficStreamReader } from './support/traffic-stream';
import { startUpstream, type UpstreamServer } from './support/upstream-server';

type Gateway = Awaited<ReturnType<typeof startTestGateway>>;

/** CONNECT through the forward proxy; resolves with the status and whatever body came with it. */
function connectThrough(proxyPort: number, authority: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxyPort, method: 'CONNECT', path: authority, agent: false });
    req.on('connect', (res, socket, head) => {
      let body = head.toString();
      socket.on('data', (c: Buffer) => (body += c.toString()));
      socket.on('close', () => resolve({ status: res.statusCode!, body }));
      if (res.statusCode === 200) socket.end();
    });
    req.on('error', reject);
    req.end();
  });
}

const proxyUrl = (gateway: Gateway, target: string) => `${gateway.url}/proxy?url=${encodeURIComponent(target)}`;

/**
 * proxy.outbound.*: where /proxy and the forward proxy (absolute-form and CONNECT) may connect. Refusals are
 * 403 problem+json naming the rule; names are judged by the address they resolve to at connect time.
 */
describe('outbound policy of /proxy and the forward proxy', () => {
  let redis: TestRedis;
  let upstream: UpstreamServer;
  let echoTcp: net.Server;
  let echoPort: number;
  let defaults: Gateway;
  let denyLoopback: Gateway;
  let allowList: Gateway;
  let stream: TrafficStreamReader;

  beforeAll(async () => {
    redis = createTestRedis();
    upstream = await startUpstream();
    echoTcp = net.createServer((s) => s.pipe(s));
    await new Promise<void>((r) => echoTcp.listen(0, '127.0.0.1', r));
    echoPort = (echoTcp.address() as net.AddressInfo).port;
    const base = { REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, PROXY_TIMEOUT_MS: '1000' };
    [defaults, denyLoopback, allowList] = await Promise.all([
      startTestGateway(base),
      startTestGateway({ ...base, PROXY_OUTBOUND_DENY: '127.0.0.0/8,::1' }),
      startTestGateway({ ...base, PROXY_OUTBOUND_ALLOW: '127.0.0.0/8,*.allowed.test' }),
    ]);
    stream = new TrafficStreamReader(redis.url, redis.prefix);
  });
  afterAll(async () => {
    stream?.close();
    await Promise.all([defaults?.stop(), denyLoopback?.stop(), allowList?.stop()]);
    await upstream?.close(100);
    await new Promise((r) => echoTcp?.close(r));
    await redis?.cleanup();
  });

  describe('by default', () => {
    it('allows loopback targets: /proxy, absolute-form and CONNECT (the local-development use)', async () => {
      expect((await call(proxyUrl(defaults, `${upstream.url}/echo/allowed`))).status).toBe(200);
      expect((await call(`http://localhost:${upstream.port}/echo/by-name`, { proxy: defaults.proxyUrl })).status).toBe(200);
      expect((await connectThrough(defaults.proxyPort, `127.0.0.1:${echoPort}`)).status).toBe(200);
    });

    it.each(['http://169.254.169.254/latest/meta-data/', 'http://[fe80::1]/', 'http://[::ffff:169.254.169.254]/', 'http://2852039166/'])(
      '/proxy refuses the link-local / metadata target %s with 403 naming the rule',
      async (target) => {
        const res = await call(proxyUrl(defaults, target));
        expect(res.status).toBe(403);
        expect(res.headers['content-type']).toContain('application/problem+json');
        const problem = json(res);
        expect(problem).toMatchObject({ type: 'https://mockyard.dev/problems/forbidden', status: 403, rule: 'proxy.outbound.allow-link-local' });
        expect(problem.detail).toContain('proxy.outbound.allow-link-local=false');
      },
    );

    it('the forward proxy refuses the metadata address, absolute-form and CONNECT alike', async () => {
      const res = await call('http://169.254.169.254/latest/meta-data/', { proxy: defaults.proxyUrl });
      expect(res.status).toBe(403);
      expect(json(res).rule).toBe('proxy.outbound.allow-link-local');
      const tunnel = await connectThrough(defaults.proxyPort, '169.254.169.254:443');
      expect(tunnel.status).toBe(403);
      expect(JSON.parse(tunnel.body)).toMatchObject({ type: 'https://mockyard.dev/problems/forbidden', status: 403 });
    });

    it('judges a CONNECT name by the address it resolves to (a numeric name resolving to the metadata address)', async () => {
      const tunnel = await connectThrough(defaults.proxyPort, '2852039166:80');
      expect(tunnel.status).toBe(403);
      expect(JSON.parse(tunnel.body).detail).toContain('resolves to 169.254.169.254');
    });
  });

  describe('with proxy.outbound.deny=127.0.0.0/8,::1', () => {
    it('refuses loopback literals before connecting', async () => {
      const res = await call(proxyUrl(denyLoopback, `${upstream.url}/echo/denied`));
      expect(res.status).toBe(403);
      expect(json(res)).toMatchObject({ rule: 'proxy.outbound.deny', entry: '127.0.0.0/8' });
      expect(upstream.seen.some((s) => s.url === '/echo/denied')).toBe(false);
    });

    it('refuses the unspecified address, which reaches this host, on /proxy, absolute-form and CONNECT', async () => {
      const viaProxy = await call(proxyUrl(denyLoopback, `http://0.0.0.0:${upstream.port}/echo/zero`));
      expect(viaProxy.status).toBe(403);
      expect(json(viaProxy)).toMatchObject({ rule: 'proxy.outbound.deny', entry: '127.0.0.0/8', target: '0.0.0.0' });
      expect((await call(`http://0.0.0.0:${upstream.port}/echo/zero2`, { proxy: denyLoopback.proxyUrl })).status).toBe(403);
      expect((await connectThrough(denyLoopback.proxyPort, `0.0.0.0:${echoPort}`)).status).toBe(403);
      expect(upstream.seen.some((s) => s.url.startsWith('/echo/zero'))).toBe(false);
    });

    it('refuses a name by the address it resolves to, on /proxy, absolute-form and CONNECT, and logs the attempt', async () => {
      const viaProxy = await call(proxyUrl(denyLoopback, `http://localhost:${upstream.port}/echo/rebound`));
      expect(viaProxy.status).toBe(403);
      expect(json(viaProxy).detail).toMatch(/localhost \(it resolves to (127\.0\.0\.1|::1)\) is refused by proxy\.outbound\.deny/);
      expect((await call(`http://localhost:${upstream.port}/echo/rebound2`, { proxy: denyLoopback.proxyUrl })).status).toBe(403);
      expect((await connectThrough(denyLoopback.proxyPort, `localhost:${echoPort}`)).status).toBe(403);
      expect(upstream.seen.some((s) => s.url.startsWith('/echo/rebound'))).toBe(false);
      const [event] = await stream.waitFor((e) => e.url.endsWith('/echo/rebound'));
      expect(event.error).toContain('proxy.outbound.deny');
    });
  });

  describe('with proxy.outbound.allow=127.0.0.0/8,*.allowed.test', () => {
    it('allows listed addresses and names resolving into them', async () => {
      expect((await call(proxyUrl(allowList, `${upstream.url}/echo/listed`))).status).toBe(200);
      expect((await call(proxyUrl(allowList, `http://localhost:${upstream.port}/echo/listed-name`))).status).toBe(200);
    });

    it('refuses everything else with 403 naming proxy.outbound.allow', async () => {
      const res = await call(proxyUrl(allowList, 'http://10.255.255.1/'));
      expect(res.status).toBe(403);
      expect(json(res)).toMatchObject({ rule: 'proxy.outbound.allow', entry: '127.0.0.0/8,*.allowed.test' });
      expect((await connectThrough(allowList.proxyPort, '[::1]:443')).status).toBe(403);
    });
  });

  it('lets link-local through when proxy.outbound.allow-link-local=true (the same target the default refuses is attempted)', async () => {
    const open = await startTestGateway({ REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, PROXY_TIMEOUT_MS: '300', PROXY_OUTBOUND_ALLOW_LINK_LOCAL: 'true' });
    try {
      const res = await call(proxyUrl(open, 'http://169.254.0.1:9/'));
      // whatever the network answers (502/504 here, or a sandbox's own refusal), it is not the policy's
      expect(res.body.toString('utf8')).not.toContain('proxy.outbound');
      const refused = await call(proxyUrl(defaults, 'http://169.254.0.1:9/'));
      expect(refused.body.toString('utf8')).toContain('proxy.outbound.allow-link-local');
    } finally {
      await open.stop();
    }
  });

  it.each([['PROXY_OUTBOUND_DENY', '10.0.0.0/33'], ['PROXY_OUTBOUND_ALLOW', 'not a host!']])('refuses an invalid %s entry at start', (key, value) => {
    expect(() => loadGatewayConfig({ env: { [key]: value }, propertiesPath: '/dev/null' })).toThrow(ConfigError);
  });
});
