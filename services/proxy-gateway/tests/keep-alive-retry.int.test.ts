import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createTestRedis } from '@mockyard/testkit';
import { startTestGateway } from './support/start-test-gateway';

// A target that closes every keep-alive connection when a second request arrives on it, as a server whose
// keep-alive timeout expired just as the gateway reused the socket (it closes all its idle sockets together).
const redis = createTestRedis();
let upstream: http.Server;
let upstreamUrl: string;
const requestsOn = new WeakMap<Socket, number>();
let answered = 0;

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    const n = (requestsOn.get(req.socket) ?? 0) + 1;
    requestsOn.set(req.socket, n);
    if (n > 1) {
      req.socket.destroy();
      return;
    }
    answered++;
    setTimeout(() => res.end(`ok ${req.url}`), 30);
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((r) => upstream.close(r));
  await redis.cleanup();
});

describe('reused keep-alive sockets the target already closed', () => {
  it('resends a bodyless request once over a fresh connection, not another pooled socket', async () => {
    const gateway = await startTestGateway({ REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix });
    try {
      const via = (path: string) => fetch(`${gateway.url}/proxy?url=${encodeURIComponent(`${upstreamUrl}${path}`)}`);
      // Two concurrent requests leave two pooled sockets behind.
      const first = await Promise.all([via('/a'), via('/b')]);
      expect(await Promise.all(first.map((r) => r.text()))).toEqual(['ok /a', 'ok /b']);
      // Both pooled sockets are dead for a second request: the retry must open a new connection.
      const res = await via('/c');
      expect({ status: res.status, body: await res.text() }).toEqual({ status: 200, body: 'ok /c' });
      expect(answered).toBe(3);
    } finally {
      await gateway.stop();
    }
  });

  it('answers 502 rather than resending a request whose body may have been consumed', async () => {
    const gateway = await startTestGateway({ REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix });
    try {
      const url = `${gateway.url}/proxy?url=${encodeURIComponent(`${upstreamUrl}/post`)}`;
      await Promise.all([fetch(url, { method: 'POST', body: 'one' }), fetch(url, { method: 'POST', body: 'two' })]);
      const res = await fetch(url, { method: 'POST', body: 'three' });
      expect(res.status).toBe(502);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    } finally {
      await gateway.stop();
    }
  });
});
