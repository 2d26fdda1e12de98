import http from 'node:http';
import { createTestRedis } from '@mockyard/testkit';
import { startTestGateway } from './support/start-test-gateway';
import { startUpstream, type UpstreamServer } from './support/upstream-server';

// proxy.timeout-ms covers a request that never got an upstream connection too: with proxy.max-sockets=1 and
// that one connection busy with a response that streams on (/hang: headers, then the body never ends; no
// timeout applies once headers arrived), a second request waits in the pool's queue and must get its 504,
// not wait for the connection to come free.
const redis = createTestRedis();
let upstream: UpstreamServer;

beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(async () => {
  await upstream.close(100);
  await redis.cleanup();
});

describe('a request queued behind a full upstream pool', () => {
  it('answers 504 problem at proxy.timeout-ms while the only connection stays busy', async () => {
    const gateway = await startTestGateway({ REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, PROXY_MAX_SOCKETS: '1', PROXY_TIMEOUT_MS: '300' });
    const via = (path: string) => `${gateway.url}/proxy?url=${encodeURIComponent(`${upstream.url}${path}`)}`;
    let streaming: http.ClientRequest | undefined;
    try {
      const firstChunk = await new Promise<string>((resolve, reject) => {
        streaming = http.get(via('/hang'), (res) => res.once('data', (chunk: Buffer) => resolve(chunk.toString())));
        streaming.on('error', reject);
      });
      expect(firstChunk).toBe('partial');

      const queued = await fetch(via('/echo'));
      expect(queued.status).toBe(504);
      expect(queued.headers.get('content-type')).toBe('application/problem+json');
      expect(await queued.json()).toMatchObject({ status: 504, detail: expect.stringContaining('did not answer within 300 ms') });
    } finally {
      streaming?.destroy();
      await gateway.stop();
    }
  });
});
