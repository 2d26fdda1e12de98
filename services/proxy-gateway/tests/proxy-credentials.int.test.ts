import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestRedis, type TestRedis } from '@mockyard/testkit';
import { PROXY_AUTHENTICATE } from '../src/forwarding/proxy-credentials';
import { call, json } from './support/http-call';
import { curl, openTunnel } from './support/proxy-clients';
import { startTestGateway } from './support/start-test-gateway';
import { TrafficStreamReader } from './support/traffic-stream';
import { startUpstream, type UpstreamServer } from './support/upstream-server';

/** proxy.security.api-key: /proxy, the forward-proxy port and CONNECT need the key in Proxy-Authorization. */
const KEY = 'proxy-test-key';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('proxy credentials (proxy.security.api-key)', () => {
  let redis: TestRedis;
  let upstream: UpstreamServer;
  let echoTcp: net.Server;
  let echoTcpPort: number;
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  let stream: TrafficStreamReader;
  let proxied: (path: string, headers?: Record<string, string>) => ReturnType<typeof call>;

  beforeAll(async () => {
    redis = createTestRedis();
    upstream = await startUpstream();
    echoTcp = net.createServer((s) => s.pipe(s));
    await new Promise<void>((r) => echoTcp.listen(0, '127.0.0.1', r));
    echoTcpPort = (echoTcp.address() as net.AddressInfo).port;
    // a redaction list without proxy-authorization: the proxy key is redacted all the same
    gateway = await startTestGateway({ REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, PROXY_API_KEY: KEY, CAPTURE_REDACT_HEADERS: 'authorization' });
    stream = new TrafficStreamReader(redis.url, redis.prefix);
    proxied = (path, headers = {}) => call(`${gateway.url}/proxy?url=${encodeURIComponent(`${upstream.url}${path}`)}`, { headers });
  });
  afterAll(async () => {
    stream.close();
    await gateway.stop();
    await upstream.close(100);
    await new Promise((r) => echoTcp.close(r));
    await redis.cleanup();
  });

  it('answers /proxy without credentials with 407 problem and the challenge, sending nothing to the target', async () => {
    const before = upstream.seen.length;
    const res = await proxied('/echo/no-credentials');
    expect(res.status).toBe(407);
    expect(res.headers['proxy-authenticate']).toBe(PROXY_AUTHENTICATE);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(json(res)).toMatchObject({ status: 407, detail: expect.stringContaining('Proxy credentials required') });
    expect(upstream.seen.length).toBe(before);
  });

  it('answers wrong credentials on /proxy with 407', async () => {
    for (const header of [basic('u', 'nope'), 'Bearer nope', `Bearer ${KEY}x`]) {
      const res = await proxied('/echo/wrong', { 'Proxy-Authorization': header });
      expect(res.status).toBe(407);
      expect(json(res).detail).toBe('Proxy credentials are not valid');
    }
  });

  it('forwards /proxy with the key as Basic password or Bearer, never passing the header to the target, and captures it redacted (not on the redaction list)', async () => {
    for (const [path, header] of [['/echo/basic', basic('anyone', KEY)], ['/echo/bearer', `Bearer ${KEY}`]]) {
      const res = await proxied(path, { 'Proxy-Authorization': header });
      expect(res.status).toBe(200);
      expect(json<{ url: string; headers: Record<string, string> }>(res).headers['proxy-authorization']).toBeUndefined();
    }
    const [event] = await stream.waitFor((e) => e.url.endsWith('/echo/basic'));
    expect(event.request.headers['proxy-authorization']).toBe('[redacted]');
    expect((await stream.readAll()).filter((e) => e.url.includes('/echo/no-credentials') || e.url.includes('/echo/wrong'))).toEqual([]);
  });

  it('asks an HTTP_PROXY client for credentials and serves it with them in the proxy URL (curl)', async () => {
    const refused = await curl(['-o', '/dev/null', '-w', '%{http_code}', `${upstream.url}/echo/curl-none`], { http_proxy: gateway.proxyUrl });
    expect(refused).toBe('407');
    const withKey = new URL(gateway.proxyUrl);
    withKey.username = 'me';
    withKey.password = KEY;
    const body = await curl([`${upstream.url}/echo/curl-key`], { http_proxy: withKey.toString() });
    expect(JSON.parse(body)).toMatchObject({ url: '/echo/curl-key' });
    expect(JSON.parse(body).headers['proxy-authorization']).toBeUndefined();
  });

  it('refuses a CONNECT without the key with 407 and the challenge, and tunnels with it', async () => {
    const refused = await openTunnel(gateway.proxyPort, `127.0.0.1:${echoTcpPort}`, {});
    expect(refused.status).toBe(407);
    expect(refused.headers['proxy-authenticate']).toBe(PROXY_AUTHENTICATE);
    expect(JSON.parse(refused.body)).toMatchObject({ status: 407, title: 'Proxy Authentication Required' });
    refused.socket.destroy();

    const tunnel = await openTunnel(gateway.proxyPort, `127.0.0.1:${echoTcpPort}`, { 'Proxy-Authorization': basic('me', KEY) });
    expect(tunnel.status).toBe(200);
    const echoed = await new Promise<Buffer>((resolve) => {
      tunnel.socket.once('data', (c: Buffer) => resolve(c));
      tunnel.socket.write('ping');
    });
    expect(echoed.toString()).toBe('ping');
    tunnel.socket.destroy();
  });

  it('survives clients that reset the connection after a refused CONNECT (407, and 400 with the key), as a process', async () => {
    // A gateway process of its own: an exception thrown from a socket's error listener ends a process, which an
    // in-process gateway under Jest would not show.
    const spoolDir = mkdtempSync(join(tmpdir(), 'gw-spool-'));
    const child = spawn(process.execPath, [join(__dirname, '..', 'dist', 'main.js')], {
      env: { ...process.env, PROXY_WORKERS: '1', SERVER_PORT: '0', SERVICE_PROXY_PORT: '0', LOG_LEVEL: 'INFO', REDIS_URL: redis.url, REDIS_PREFIX: `${redis.prefix}-p`, PROXY_API_KEY: KEY, CAPTURE_SPOOL_DIR: spoolDir },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const ports = await new Promise<{ port: number; proxyPort: number }>((resolve, reject) => {
        let buffered = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          buffered += chunk.toString();
          const line = buffered.split('\n').find((l) => l.includes('"proxy-gateway listening"'));
          if (line) resolve(JSON.parse(line) as { port: number; proxyPort: number });
        });
        void exited.then(() => reject(new Error('the gateway exited before it listened')));
      });
      for (const head of ['', `Proxy-Authorization: ${basic('me', KEY)}\r\n`]) {
        const socket = net.connect(ports.proxyPort, '127.0.0.1');
        await new Promise((r) => socket.once('connect', r));
        // with the key, a target that is no host:port: the 400 refusal
        socket.write(`CONNECT ${head ? 'not-an-authority' : `127.0.0.1:${echoTcpPort}`} HTTP/1.1\r\nHost: x\r\n${head}\r\n`);
        const answer = await new Promise<string>((r) => socket.once('data', (c: Buffer) => r(c.toString())));
        expect(answer).toMatch(head ? /^HTTP\/1\.1 400 / : /^HTTP\/1\.1 407 /);
        socket.resetAndDestroy();
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(child.exitCode).toBeNull();
      const res = await call(`http://127.0.0.1:${ports.port}/proxy?url=${encodeURIComponent(`${upstream.url}/echo/after-resets`)}`, { headers: { 'Proxy-Authorization': `Bearer ${KEY}` } });
      expect(res.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await exited;
      rmSync(spoolDir, { recursive: true, force: true });
    }
  });

  it('asks nothing of the gateway\'s other routes', async () => {
    expect((await call(`${gateway.url}/health/live`)).status).toBe(200);
  });
});
