import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { createTestRedis, freePort, type TestRedis } from '@mockyard/testkit';
import { call, json } from './support/http-call';
import { startTestGateway } from './support/start-test-gateway';
import { TrafficStreamReader } from './support/traffic-stream';
import { BINARY, GZIPPED_JSON, startUpstream, type UpstreamServer } from './support/upstream-server';

type Echo = { method: string; url: string; headers: Record<string, string>; body: string; bodyLength: number };

describe('POST/GET /proxy?url=… forwarding and capture', () => {
  let redis: TestRedis;
  let upstream: UpstreamServer;
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  let stream: TrafficStreamReader;
  const proxyUrl = (target: string) => `${gateway.url}/proxy?url=${encodeURIComponent(target)}`;
  /** Proxies a GET to `target`: a 502 problem whose detail names `detail`, and a logged event with no response and `error`. */
  const expectBadGatewayLogged = async (target: string, detail: string, error: string) => {
    const res = await call(proxyUrl(target));
    expect(res.status).toBe(502);
    expect(json(res)).toMatchObject({ status: 502, detail: expect.stringContaining(detail) });
    const [event] = await stream.waitFor((e) => e.url === target);
    expect(event.response).toBeUndefined();
    expect(event.error).toContain(error);
  };

  beforeAll(async () => {
    redis = createTestRedis();
    upstream = await startUpstream();
    gateway = await startTestGateway({ REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, PROXY_TIMEOUT_MS: '1000' });
    stream = new TrafficStreamReader(redis.url, redis.prefix);
  });
  afterAll(async () => {
    stream.close();
    await gateway.stop();
    await upstream.close(100);
    await redis.cleanup();
  });

  it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])('forwards %s with its body and logs it', async (method) => {
    const body = method === 'GET' ? undefined : JSON.stringify({ method });
    const res = await call(proxyUrl(`${upstream.url}/echo/${method}?q=1`), { method, body, headers: body ? { 'Content-Type': 'application/json' } : {} });
    expect([res.status, res.body.toString()]).toEqual([200, expect.anything()]);
    const echo = json<Echo>(res);
    expect(echo.method).toBe(method);
    expect(echo.url).toBe(`/echo/${method}?q=1`);
    expect(Buffer.from(echo.body, 'base64').toString()).toBe(body ?? '');
    const [event] = await stream.waitFor((e) => e.url === `${upstream.url}/echo/${method}?q=1`);
    expect(event).toMatchObject({ source: 'proxy', method, response: { status: 200 }, clientAddress: '127.0.0.1' });
    if (body) expect(event.request.body).toMatchObject({ encoding: 'utf8', data: body, truncated: false });
  });

  it('forwards HEAD and passes back the headers without a body', async () => {
    const res = await call(proxyUrl(`${upstream.url}/binary`), { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe(String(BINARY.length));
    expect(res.body.length).toBe(0);
  });

  it('sends a URL-encoded form as is and captures it as text', async () => {
    const form = 'name=Ada+Lovelace&lang=en%2Dgb';
    const res = await call(proxyUrl(`${upstream.url}/echo/form`), { method: 'POST', body: form, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    const echo = json<Echo>(res);
    expect(Buffer.from(echo.body, 'base64').toString()).toBe(form);
    expect(echo.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const [event] = await stream.waitFor((e) => e.url.endsWith('/echo/form'));
    expect(event.request.body).toMatchObject({ encoding: 'utf8', data: form, contentType: 'application/x-www-form-urlencoded' });
  });

  it.each([
    ['plain text that needs no escaping', 'text/plain', 'mockyard-bench-'.repeat(7000)],
    ['non-ASCII text', 'text/plain; charset=utf-8', 'grüße € '.repeat(10000)],
    ['JSON with quotes, backslashes and newlines', 'application/json', JSON.stringify({ a: 'x\\y "z"\n'.repeat(5000) }, null, 2)],
  ])('captures a large text body exactly: %s', async (_name, contentType, body) => {
    const path = `/echo/large-${contentType.length}-${body.length}`;
    const res = await call(proxyUrl(`${upstream.url}${path}`), { method: 'POST', body, headers: { 'Content-Type': contentType } });
    expect(Buffer.from(json<Echo>(res).body, 'base64').toString()).toBe(body);
    const [event] = await stream.waitFor((e) => e.url.endsWith(path));
    expect(event.request.body).toEqual({ encoding: 'utf8', data: body, size: Buffer.byteLength(body), truncated: false, contentType });
    expect(event.response!.body).toMatchObject({ encoding: 'utf8', data: res.body.toString(), truncated: false });
  });

  it('sends an empty POST body and a binary one byte for byte', async () => {
    const empty = json<Echo>(await call(proxyUrl(`${upstream.url}/echo/empty`), { method: 'POST' }));
    expect(empty.bodyLength).toBe(0);
    const bin = json<Echo>(await call(proxyUrl(`${upstream.url}/echo/bin`), { method: 'POST', body: BINARY, headers: { 'Content-Type': 'application/octet-stream' } }));
    expect(Buffer.from(bin.body, 'base64')).toEqual(BINARY);
    const [event] = await stream.waitFor((e) => e.url.endsWith('/echo/bin'));
    expect(event.request.body).toMatchObject({ encoding: 'base64', size: 256 });
    expect(Buffer.from(event.request.body!.data, 'base64')).toEqual(BINARY);
  });

  it('returns binary and compressed bodies unchanged and captures them as base64', async () => {
    const bin = await call(proxyUrl(`${upstream.url}/binary`));
    expect(bin.headers['content-type']).toBe('image/png');
    expect(bin.body).toEqual(BINARY);
    const gz = await call(proxyUrl(`${upstream.url}/gzip`), { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body).toEqual(GZIPPED_JSON);
    const [event] = await stream.waitFor((e) => e.url.endsWith('/gzip'));
    expect(event.response!.body).toMatchObject({ encoding: 'base64', size: GZIPPED_JSON.length });
    expect(Buffer.from(event.response!.body!.data, 'base64')).toEqual(GZIPPED_JSON);
  });

  it('passes redirects back instead of following them, and keeps status codes and reasons', async () => {
    const redirect = await call(proxyUrl(`${upstream.url}/redirect`));
    expect(redirect.status).toBe(302);
    expect(redirect.headers.location).toBe('/echo');
    const teapot = await call(proxyUrl(`${upstream.url}/status/418`));
    expect([teapot.status, teapot.statusMessage, teapot.body.toString()]).toEqual([418, 'Custom Reason', 'status 418']);
    // an empty reason phrase stays empty (Node would write its own: "unknown", "OK")
    const raw = net.createServer((socket) => socket.once('data', () => socket.end('HTTP/1.1 299 \r\nContent-Length: 2\r\nConnection: close\r\n\r\nok')));
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const empty = await call(proxyUrl(`http://127.0.0.1:${(raw.address() as AddressInfo).port}/no-reason`));
      expect([empty.status, empty.statusMessage, empty.body.toString()]).toEqual([299, '', 'ok']);
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it('drops hop-by-hop headers, sets Host to the target and adds X-Forwarded-For/-Proto/-Host', async () => {
    const res = await call(proxyUrl(`${upstream.url}/echo/headers`), {
      headers: { Connection: 'keep-alive, X-Hop', 'X-Hop': 'secret', 'Keep-Alive': 'timeout=5', 'X-End-To-End': 'kept', 'X-Forwarded-For': '10.1.2.3' },
    });
    const { headers } = json<Echo>(res);
    expect(headers.host).toBe(new URL(upstream.url).host);
    expect(headers['x-forwarded-for']).toBe('10.1.2.3, 127.0.0.1');
    expect(headers['x-forwarded-proto']).toBe('http');
    expect(headers['x-forwarded-host']).toBe(new URL(gateway.url).host);
    expect(headers['x-end-to-end']).toBe('kept');
    expect(headers['x-hop']).toBeUndefined();
    expect(headers['keep-alive']).toBeUndefined();
    expect(res.headers['x-upstream']).toBe('echo');
  });

  it('passes every Set-Cookie back but redacts credentials in the log only', async () => {
    const res = await call(proxyUrl(`${upstream.url}/cookies`), { headers: { Authorization: 'Bearer top-secret', Cookie: 'session=abc' } });
    expect(res.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(upstream.seen.at(-1)!.headers).toMatchObject({ authorization: 'Bearer top-secret', cookie: 'session=abc' });
    const [event] = await stream.waitFor((e) => e.url.endsWith('/cookies'));
    expect(event.request.headers).toMatchObject({ authorization: '[redacted]', cookie: '[redacted]' });
    expect(event.response!.headers['set-cookie']).toEqual(['[redacted]', '[redacted]']);
    expect(JSON.stringify(event)).not.toContain('top-secret');
  });

  it('accepts an unencoded target whose own query has several parameters', async () => {
    const res = await call(`${gateway.url}/proxy?url=${upstream.url}/echo/raw?a=1&b=2`);
    expect(json<Echo>(res).url).toBe('/echo/raw?a=1&b=2');
  });

  it("sends the target's path and query as written (dot segments, quotes, braces) and logs them so", async () => {
    const target = `${upstream.url}/echo/a/../b/./{id}?q=it's&r=%2F`;
    const res = await call(proxyUrl(target));
    expect(json<Echo>(res).url).toBe("/echo/a/../b/./{id}?q=it's&r=%2F");
    const [event] = await stream.waitFor((e) => e.url === target);
    expect(event.response!.status).toBe(200);
  });

  it("sends the target URL's user-info as Authorization: Basic and keeps it out of the log", async () => {
    const { host } = new URL(upstream.url);
    const res = await call(proxyUrl(`http://alice:s3cret@${host}/echo/userinfo`));
    expect(json<Echo>(res).headers.authorization).toBe(`Basic ${Buffer.from('alice:s3cret').toString('base64')}`);
    const [event] = await stream.waitFor((e) => e.url === `${upstream.url}/echo/userinfo`);
    expect(JSON.stringify(event)).not.toContain('s3cret');
  });

  it.each([
    ['no url', '/proxy', 'required'],
    ['an unparsable url', '/proxy?url=not%20a%20url', 'not an absolute URL'],
    ['an ftp url', '/proxy?url=ftp%3A%2F%2Fexample.test%2F', 'only http and https'],
  ])('answers 400 problem for %s', async (_name, path, detail) => {
    const res = await call(`${gateway.url}${path}`, { method: 'POST' });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(json(res)).toMatchObject({ status: 400, detail: expect.stringContaining(detail) });
  });

  it('answers 400 for a url pointing back at the gateway\'s own /proxy', async () => {
    const res = await call(proxyUrl(`http://localhost:${gateway.port}/proxy?url=${encodeURIComponent(`${upstream.url}/echo`)}`));
    expect(res.status).toBe(400);
    expect(json(res).detail).toContain('points back at this gateway');
  });

  it('answers 502 problem when the target refuses the connection, and logs the failure', async () => {
    const closedPort = await freePort();
    await expectBadGatewayLogged(`http://127.0.0.1:${closedPort}/nothing`, 'refused the connection', 'refused');
  });

  it('answers 502 problem when the target answers with something that is not HTTP, and logs the failure', async () => {
    const garbage = net.createServer((socket) => socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.6\r\n')));
    await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
    try {
      await expectBadGatewayLogged(`http://127.0.0.1:${(garbage.address() as AddressInfo).port}/not-http`, 'sent an invalid HTTP response', 'invalid HTTP response');
    } finally {
      await new Promise((resolve) => garbage.close(resolve));
    }
  });

  it('answers 502 problem when the target host does not resolve', async () => {
    const res = await call(proxyUrl('http://no-such-host.invalid/'));
    expect(res.status).toBe(502);
    expect(json(res).detail).toContain('does not resolve');
  });

  it('answers 504 problem when the target does not answer within proxy.timeout-ms', async () => {
    const res = await call(proxyUrl(`${upstream.url}/slow`));
    expect(res.status).toBe(504);
    expect(json(res)).toMatchObject({ status: 504, type: expect.stringContaining('gateway-timeout') });
  });

  it('answers 408 problem, not 504, when the client stops sending its body for proxy.timeout-ms (the target waits for it)', async () => {
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(proxyUrl(`${upstream.url}/echo/stalled`), { method: 'POST', headers: { 'Content-Length': '10', 'Content-Type': 'text/plain' } }, (response) => {
        let body = '';
        response.on('data', (c: Buffer) => (body += c.toString()));
        response.on('end', () => resolve({ status: response.statusCode!, body }));
      });
      req.on('error', reject);
      req.write('abc'); // 3 of 10 bytes, then nothing
    });
    expect(res.status).toBe(408);
    expect(JSON.parse(res.body)).toMatchObject({ status: 408, type: expect.stringContaining('request-timeout'), detail: expect.stringContaining('sent no part of the request body for 1000 ms') });
    const [event] = await stream.waitFor((e) => e.url.endsWith('/echo/stalled'));
    expect(event.error).toContain('sent no part of the request body');
  });

  it('aborts the upstream request when the client goes away', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = http.get(proxyUrl(`${upstream.url}/hang`), (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
    });
    await upstream.hangClosed;
    const [event] = await stream.waitFor((e) => e.url.endsWith('/hang'));
    expect(event.error).toContain('client closed');
  });

  it('streams a 200 MB upload and a 200 MB download without buffering them', async () => {
    const total = 200 * 1024 * 1024;
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    try {
      const hash = createHash('sha256');
      const chunk = Buffer.alloc(256 * 1024, 'upload-');
      let produced = 0;
      const source = Readable.from(
        (function* () {
          while (produced < total) {
            produced += chunk.length;
            hash.update(chunk);
            yield chunk;
          }
        })(),
      );
      const up = json<{ bytes: number; sha256: string }>(
        await call(proxyUrl(`${upstream.url}/upload`), { method: 'POST', body: source, headers: { 'Content-Type': 'application/octet-stream' } }),
      );
      expect(up).toEqual({ bytes: total, sha256: hash.digest('hex') });

      const downloaded = await new Promise<number>((resolve, reject) => {
        http.get(proxyUrl(`${upstream.url}/download?bytes=${total}`), (res) => {
          let bytes = 0;
          res.on('data', (c: Buffer) => (bytes += c.length));
          res.on('end', () => resolve(bytes));
          res.on('error', reject);
        });
      });
      expect(downloaded).toBe(total);
    } finally {
      clearInterval(sampler);
    }
    expect(peak - baseline).toBeLessThan(150 * 1024 * 1024);
    const [upload] = await stream.waitFor((e) => e.url.endsWith('/upload'));
    expect(upload.request.body).toMatchObject({ size: total, truncated: true });
    expect(Buffer.from(upload.request.body!.data, 'base64').length).toBe(262144);
    const [download] = await stream.waitFor((e) => e.url.includes('/download?bytes='));
    expect(download.response!.body).toMatchObject({ size: total, truncated: true });
  });
});
