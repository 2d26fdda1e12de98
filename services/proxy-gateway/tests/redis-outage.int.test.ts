import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startOwnRedis, type OwnRedis } from '@mockyard/testkit';
import { call, json } from './support/http-call';
import { startTestGateway } from './support/start-test-gateway';
import { TrafficStreamReader } from './support/traffic-stream';
import { startUpstream, type UpstreamServer } from './support/upstream-server';

const PREFIX = 'outage';

async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs = 20000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('capture while Redis goes away and comes back', () => {
  let upstream: UpstreamServer;
  let redis: OwnRedis;
  let dataDir: string;

  beforeAll(async () => {
    upstream = await startUpstream();
    dataDir = mkdtempSync(join(tmpdir(), 'gw-redis-'));
    redis = await startOwnRedis({ dir: dataDir, appendfsync: 'always' });
  });
  afterAll(async () => {
    await redis.stop();
    await upstream.close(100);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('spools events while Redis is down and replays them so every exchange is on the stream exactly once, in order', async () => {
    const gateway = await startTestGateway({ REDIS_URL: redis.url, REDIS_PREFIX: `${PREFIX}-flow` });
    const stream = new TrafficStreamReader(redis.url, `${PREFIX}-flow`);
    try {
      const total = 150;
      let sent = 0;
      const traffic = (async () => {
        for (; sent < total; sent++) {
          const res = await call(`${gateway.url}/proxy?url=${upstream.url}/echo/outage-${sent}`);
          expect(res.status).toBe(200);
          await new Promise((r) => setTimeout(r, 5));
        }
      })();

      await waitUntil(() => sent >= 40);
      await redis.stop();
      await waitUntil(() => sent >= 80);
      const ready = json<{ status: string; components: { redis: { status: string } }; capture: { spooled: number } }>(await call(`${gateway.url}/health/ready`));
      expect(ready).toMatchObject({ status: 'DEGRADED', components: { redis: { status: 'DOWN' } } });
      expect(ready.capture.spooled).toBeGreaterThan(0);
      await waitUntil(() => sent >= 100);
      await redis.start();
      await traffic;

      await waitUntil(async () => (await stream.readAll().catch(() => [])).length >= total && gateway.publisher!.counters().spoolPendingBytes === 0);
      const events = await stream.readAll();
      const order = events.map((e) => Number(/outage-(\d+)$/.exec(e.url)![1]));
      expect(order).toEqual(Array.from({ length: total }, (_, i) => i));
      expect(new Set(events.map((e) => e.id)).size).toBe(total);

      await gateway.publisher!.flush(); // counters are updated when the replies are in, a moment after the reader sees them
      const counters = gateway.publisher!.counters();
      expect(counters.spooled).toBeGreaterThan(0);
      expect(counters).toMatchObject({ replayed: counters.spooled, dropped: 0, buffered: 0 });
      expect(counters.published + counters.replayed).toBe(total);
      const metrics = (await call(`${gateway.url}/metrics`)).body.toString();
      expect(metrics).toContain(`mockyard_capture_events_total{outcome="replayed"} ${counters.replayed}`);
      expect(metrics).toContain('mockyard_gateway_redis_up 1');
    } finally {
      stream.close();
      await gateway.stop();
    }
  });

  it('keeps forwarding and counts every drop when the spool is over capture.spool.max-bytes', async () => {
    const deadRedis = `redis://127.0.0.1:${await freePort()}`;
    const gateway = await startTestGateway({ REDIS_URL: deadRedis, REDIS_PREFIX: `${PREFIX}-full`, CAPTURE_SPOOL_MAX_BYTES: '4000' });
    try {
      for (let i = 0; i < 10; i++) expect((await call(`${gateway.url}/proxy?url=${upstream.url}/echo/full-${i}`)).status).toBe(200);
      await waitUntil(() => {
        const c = gateway.publisher!.counters();
        return c.spooled + c.dropped === 10;
      });
      const counters = gateway.publisher!.counters();
      expect(counters.dropped).toBeGreaterThan(0);
      expect(counters.spooled).toBeGreaterThan(0);
      expect(counters.spoolPendingBytes).toBeLessThanOrEqual(4000);
      const metrics = (await call(`${gateway.url}/metrics`)).body.toString();
      expect(metrics).toContain(`mockyard_capture_events_total{outcome="dropped"} ${counters.dropped}`);
      expect(metrics).toContain('mockyard_gateway_redis_up 0');
    } finally {
      await gateway.stop();
    }
  });

  it('replays a spool left by a stopped gateway when the next one starts', async () => {
    const spoolDir = mkdtempSync(join(tmpdir(), 'gw-spool-kept-'));
    try {
      const first = await startTestGateway({ REDIS_URL: `redis://127.0.0.1:${await freePort()}`, REDIS_PREFIX: `${PREFIX}-restart`, CAPTURE_SPOOL_DIR: spoolDir });
      for (let i = 0; i < 5; i++) await call(`${first.url}/proxy?url=${upstream.url}/echo/kept-${i}`);
      await waitUntil(() => first.publisher!.counters().spooled === 5);
      await first.stop();

      const second = await startTestGateway({ REDIS_URL: redis.url, REDIS_PREFIX: `${PREFIX}-restart`, CAPTURE_SPOOL_DIR: spoolDir });
      const stream = new TrafficStreamReader(redis.url, `${PREFIX}-restart`);
      try {
        const events = await stream.waitFor((e) => e.url.includes('/echo/kept-'), 5);
        expect(events.map((e) => e.url.split('/').pop())).toEqual(['kept-0', 'kept-1', 'kept-2', 'kept-3', 'kept-4']);
        // The reader can see the entries a moment before the publisher has counted its replies.
        await waitUntil(() => second.publisher!.counters().spoolPendingBytes === 0);
        expect(second.publisher!.counters()).toMatchObject({ replayed: 5, published: 0, dropped: 0 });
      } finally {
        stream.close();
        await second.stop();
      }
    } finally {
      rmSync(spoolDir, { recursive: true, force: true });
    }
  });
});
