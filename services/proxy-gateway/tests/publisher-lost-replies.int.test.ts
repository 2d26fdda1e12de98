import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { publisherRedisOptions, Spool, TrafficPublisher } from '@mockyard/bus';
import type { TrafficEvent } from '@mockyard/contracts';
import { createTestRedis, type TestRedis } from '@mockyard/testkit';
import { TrafficStreamReader } from './support/traffic-stream';

/**
 * A TCP relay in front of the real Redis that can swallow replies and then cut the connection: the
 * XADDs reach Redis and are stored, but the publisher never learns it (the ambiguous failure).
 */
async function startReplyDroppingRelay(redisUrl: string) {
  const target = new URL(redisUrl);
  const sockets = new Set<net.Socket>();
  let dropReplies = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    sockets.add(client).add(upstream);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('data', (chunk: Buffer) => upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => {
      if (!dropReplies) {
        client.write(chunk);
        return;
      }
      // Redis has answered, so it has stored the pipeline; the reply is swallowed and the connection cut
      // (after a moment, in case the replies arrive in more than one chunk).
      setTimeout(() => (client.destroy(), upstream.destroy()), 50);
    });
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `redis://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    setDropReplies: (on: boolean) => (dropReplies = on),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

function event(n: number): TrafficEvent {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    startedAt: new Date().toISOString(),
    durationMs: 1,
    source: 'proxy',
    method: 'GET',
    url: `http://t.test/lost-${n}`,
    request: { headers: {} },
  };
}

describe('TrafficPublisher when XADD replies are lost', () => {
  let redis: TestRedis;
  let dir: string;
  beforeAll(() => {
    redis = createTestRedis();
    dir = mkdtempSync(join(tmpdir(), 'lost-replies-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await redis.cleanup();
  });

  it('does not publish twice an event that Redis stored but never acknowledged', async () => {
    const relay = await startReplyDroppingRelay(redis.url);
    const connection = new Redis(relay.url, { ...publisherRedisOptions, retryStrategy: () => 100 });
    connection.on('error', () => {});
    await new Promise((r) => connection.once('ready', r));
    const silent = { debug() {}, info() {}, warn() {}, error() {} };
    const publisher = new TrafficPublisher({ redis: connection, prefix: redis.prefix, spool: new Spool({ dir, maxBytes: 1 << 20 }), logger: silent, breaker: { resetTimeoutMs: 200 } });
    const stream = new TrafficStreamReader(redis.url, redis.prefix);
    publisher.start();
    try {
      relay.setDropReplies(true);
      for (let n = 0; n < 3; n++) publisher.publish(event(n));
      await publisher.flush();
      expect(publisher.counters()).toMatchObject({ published: 0, spooled: 3 });
      expect(await stream.readAll()).toHaveLength(3); // stored by Redis all the same

      relay.setDropReplies(false);
      publisher.publish(event(3));
      const events = await stream.waitFor(() => true, 4);
      expect(events.map((e) => e.url)).toEqual([0, 1, 2, 3].map((n) => `http://t.test/lost-${n}`));
      await publisher.flush();
      expect(publisher.counters()).toMatchObject({ replayed: 4, dropped: 0, spoolPendingBytes: 0 });
      expect(await stream.readAll()).toHaveLength(4);
    } finally {
      stream.close();
      await publisher.stop();
      connection.disconnect();
      await relay.close();
    }
  });
});
