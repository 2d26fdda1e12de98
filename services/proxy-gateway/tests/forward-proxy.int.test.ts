import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestRedis, freePort, type TestRedis } from '@mockyard/testkit';
import { call, json } from './support/http-call';
import { curl, openTunnel } from './support/proxy-clients';
import { startTestGateway } from './support/start-test-gateway';
import { TrafficStreamReader } from './support/traffic-stream';
import { startUpstream, type UpstreamServer } from './support/upstream-server';

/** Sent on every tunnel: without a proxy key the gateway ignores it (it is never forwarded). */
const PROXY_CREDENTIALS = { 'Proxy-Authorization': 'Basic c2VjcmV0' };

describe('forward-proxy port (service.proxy.port): HTTP_PROXY clients and CONNECT tunnels', () => {
  let redis: TestRedis;
  let upstream: UpstreamServer;
  let echoTcp: net.Server;
  let echoTcpPort: number;
  let tlsServer: https.Server;
  let tlsPort: number;
  let certDir: string;
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  let stream: TrafficStreamReader;

  beforeAll(async () => {
    redis = createTestRedis();
    upstream = await startUpstream();
    echoTcp = net.createServer((s) => s.pipe(s));
    await new Promise<void>((r) => echoTcp.listen(0, '127.0.0.1', r));
    echoTcpPort = (echoTcp.address() as net.AddressInfo).port;
    certDir = mkdtempSync(join(tmpdir(), 'gw-cert-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-keyout', join(certDir, 'key.pem'), '-out', join(certDir, 'cert.pem')], { stdio: 'ignore' });
    const tls = https.createServer({ key: readFileSync(join(certDir, 'key.pem')), cert: readFileSync(join(certDir, 'cert.pem')) }, (_req, res) => res.end('secret over tls'));
    await new Promise<void>((r) => tls.listen(0, '127.0.0.1', r));
    tlsServer = tls;
    tlsPort = (tls.address() as net.AddressInfo).port;
    gateway = await startTestGateway({ REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix });
    stream = new TrafficStreamReader(redis.url, redis.prefix);
  });
  afterAll(async () => {
    stream.close();
    await gateway.stop();
    await upstream.close(100);
    tlsServer.closeAllConnections();
    await new Promise((r) => tlsServer.close(r));
    await new Promise((r) => echoTcp.close(r));
    rmSync(certDir, { recursive: true, force: true });
    await redis.cleanup();
  });

  it('forwards absolute-form requests and logs them with source forward', async () => {
    const res = await call(`${upstream.url}/echo/forward?x=1`, { method: 'POST', body: '{"via":"proxy"}', headers: { 'Content-Type': 'application/json' }, proxy: gateway.proxyUrl });
    expect(res.status).toBe(200);
    expect(json(res)).toMatchObject({ method: 'POST', url: '/echo/forward?x=1', headers: { host: new URL(upstream.url).host } });
    const [event] = await stream.waitFor((e) => e.url.endsWith('/echo/forward?x=1'));
    expect(event).toMatchObject({ source: 'forward', method: 'POST', response: { status: 200 }, request: { body: { data: '{"via":"proxy"}' } } });
  });

  it("sends an absolute-form target's path and query as written (dot segments, quotes)", async () => {
    const res = await call(`${upstream.url}/echo/a/../fwd?q=it's`, { proxy: gateway.proxyUrl });
    expect(json(res)).toMatchObject({ url: "/echo/a/../fwd?q=it's" });
    const [event] = await stream.waitFor((e) => e.url === `${upstream.url}/echo/a/../fwd?q=it's`);
    expect(event.source).toBe('forward');
  });

  it('captures a program that only has http_proxy set (curl), without code changes', async () => {
    const body = await curl([`${upstream.url}/echo/curl`], { http_proxy: gateway.proxyUrl });
    expect(JSON.parse(body)).toMatchObject({ url: '/echo/curl' });
    const [event] = await stream.waitFor((e) => e.url.endsWith('/echo/curl'));
    expect(event.source).toBe('forward');
    expect(event.request.headers['user-agent']).toMatch(/^curl\//);
  });

  it('answers 400 problem to an origin-form request on the proxy port', async () => {
    const res = await call(`${gateway.proxyUrl}/echo`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(json(res).detail).toContain('absolute-form');
  });

  it('answers 502 problem when the forwarded target refuses', async () => {
    const res = await call(`http://127.0.0.1:${await freePort()}/x`, { proxy: gateway.proxyUrl });
    expect(res.status).toBe(502);
  });

  it('relays a CONNECT tunnel byte for byte and logs host, port and bytes each way', async () => {
    const { socket, status } = await openTunnel(gateway.proxyPort, `127.0.0.1:${echoTcpPort}`, PROXY_CREDENTIALS);
    expect(status).toBe(200);
    const payload = Buffer.from([0, 1, 2, 3, 254, 255, 10, 13]);
    const echoed = await new Promise<Buffer>((resolve) => {
      socket.once('data', (c: Buffer) => resolve(c));
      socket.write(payload);
    });
    expect(echoed).toEqual(payload);
    socket.end();
    const [event] = await stream.waitFor((e) => e.source === 'tunnel' && e.url === `127.0.0.1:${echoTcpPort}`);
    expect(event).toMatchObject({ method: 'CONNECT', response: { status: 200 }, tunnel: { host: '127.0.0.1', port: echoTcpPort, bytesUp: 8, bytesDown: 8 } });
    expect(event.request.headers['proxy-authorization']).toBe('[redacted]');
  });

  it('tunnels HTTPS for a program with https_proxy set, without decrypting it', async () => {
    const body = await curl(['-k', `https://localhost:${tlsPort}/private`], { https_proxy: gateway.proxyUrl });
    expect(body).toBe('secret over tls');
    const [event] = await stream.waitFor((e) => e.source === 'tunnel' && e.url === `localhost:${tlsPort}`);
    expect(event.tunnel!.bytesUp).toBeGreaterThan(0);
    expect(event.tunnel!.bytesDown).toBeGreaterThan(0);
    expect(JSON.stringify(event)).not.toContain('secret over tls');
  });

  it('answers 502 to a CONNECT whose target refuses and logs the failed tunnel', async () => {
    const port = await freePort();
    const { status, body } = await openTunnel(gateway.proxyPort, `127.0.0.1:${port}`, PROXY_CREDENTIALS);
    expect(status).toBe(502);
    expect(body).toContain('could not be reached');
    const [event] = await stream.waitFor((e) => e.source === 'tunnel' && e.url === `127.0.0.1:${port}`);
    expect(event.response).toBeUndefined();
    expect(event.error).toContain('ECONNREFUSED');
  });

  it('answers 400 to a CONNECT back at the proxy port itself, or at the public port', async () => {
    expect((await openTunnel(gateway.proxyPort, `127.0.0.1:${gateway.proxyPort}`, PROXY_CREDENTIALS)).status).toBe(400);
    expect((await openTunnel(gateway.proxyPort, `localhost:${gateway.port}`, PROXY_CREDENTIALS)).status).toBe(400);
  });
});
