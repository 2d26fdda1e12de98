import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestRedis } from '@mockyard/testkit';
import { startTestGateway } from './support/start-test-gateway';

// proxy.timeout-ms covers a request that never got an upstream connection too: with proxy.max-sockets=1 and
// that one connection busy with a response that streams on (no timeout applies once headers arrived), a second
// request waits in the pool's queue and must get its 504, not wait for the connection to come free.
const redis = createTestRedis();
let upstream: http.Server;
let upstreamUrl: string;

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first chunk, and the rest never comes');
      return;
    }
    res.end('ok');
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((r) => upstream.close(r));
  await redis.cleanup();
});

describe('a request queued behind a full upstream pool', () => {
  it('answers 504 problem at proxy.timeout-ms while the only connection stays busy', async () => {
    const gateway = await startTestGateway({ REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, PROXY_MAX_SOCKETS: '1', PROXY_TIMEOUT_MS: '300' });
    const via = (path: string) => `${gateway.url}/proxy?url=${encodeURIComponent(`${upstreamUrl}${path}`)}`;
    let streaming: http.ClientRequest | undefined;
    try {
      const firstChunk = await new Promise<string>((resolve, reject) => {
        streaming = http.get(via('/stream'), (res) => res.once('data', (chunk: Buffer) => resolve(chunk.toString())));
        streaming.on('error', reject);
      });
      expect(firstChunk).toContain('first chunk');

      const queued = await fetch(via('/ok'));
      expect(queued.status).toBe(504);
      expect(queued.headers.get('content-type')).toBe('application/problem+json');
      expect(await queued.json()).toMatchObject({ status: 504, detail: expect.stringContaining('did not answer within 300 ms') });
    } finally {
      streaming?.destroy();
      await gateway.stop();
    }
  });
});
