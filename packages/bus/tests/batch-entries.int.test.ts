import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { redisKeys, type TrafficEvent } from '@mockyard/contracts';
import { createTestRedis, type TestRedis } from '@mockyard/testkit';
import { publisherRedisOptions, Spool, streamEntryFields, TrafficConsumer, TrafficPublisher, type TrafficEntry } from '../src';
import { findStoredEventIds } from '../src/traffic-publisher-dedupe';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

function event(n: number, body?: string): TrafficEvent {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    startedAt: new Date().toISOString(),
    durationMs: 1,
    source: 'proxy',
    method: 'POST',
    url: `http://t.test/batch-${n}`,
    request: { headers: {}, ...(body ? { body: { encoding: 'utf8', data: body, size: body.length, truncated: false } } : {}) },
  };
}

/** The publisher's connection, ready (it never queues commands: before 'ready' they fail and events spool). */
async function connect(url: string): Promise<Redis> {
  const connection = new Redis(url, publisherRedisOptions);
  await new Promise((r) => connection.once('ready', r));
  return connection;
}

async function waitFor(probe: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('traffic stream entries carrying batches (publisher -> Redis -> consumer)', () => {
  let testRedis: TestRedis;
  let redis: Redis;
  let dir: string;
  beforeEach(() => {
    testRedis = createTestRedis();
    redis = new Redis(testRedis.url);
    dir = mkdtempSync(join(tmpdir(), 'batch-entries-'));
  });
  afterEach(async () => {
    redis.disconnect();
    rmSync(dir, { recursive: true, force: true });
    await testRedis.cleanup();
  });

  it('XADDs one entry per batch and a consumer hands every event over, in order, then acks the entries', async () => {
    const keys = redisKeys(testRedis.prefix);
    const connection = await connect(testRedis.url);
    const publisher = new TrafficPublisher({ redis: connection, prefix: testRedis.prefix, spool: new Spool({ dir, maxBytes: 1 << 20 }), logger: silent, batchSize: 100 });
    const large = 'x'.repeat(5000);
    const events = Array.from({ length: 250 }, (_, n) => event(n, n % 50 === 7 ? large : undefined));
    publisher.start();
    // Published in one turn of the event loop: the drain finds 250 buffered events, batches of at most 100.
    // Large bodies handed over as a producer does: data "" in the event, the bytes beside it.
    for (const e of events) {
      if (e.request.body) publisher.publish({ ...e, request: { ...e.request, body: { ...e.request.body, data: '' } } }, { request: Buffer.from(e.request.body.data) });
      else publisher.publish(e);
    }
    await publisher.flush();
    await publisher.stop();
    connection.disconnect();
    expect(publisher.counters()).toMatchObject({ published: 250, spooled: 0, dropped: 0 });
    const entries = await redis.xrange(keys.trafficStream, '-', '+');
    expect(entries.map(([, fields]) => fields.filter((f) => f === 'event').length)).toEqual([100, 100, 50]);
    expect(entries.flatMap(([, fields]) => fields.filter((f) => f === 'request-body'))).toHaveLength(5);

    const handed: TrafficEntry[] = [];
    const consumer = new TrafficConsumer({
      redis,
      prefix: testRedis.prefix,
      consumerName: 'c1',
      batchSize: 120,
      batchMaxWaitMs: 20,
      claimIdleMs: 60_000,
      deadLetterMaxLength: 100,
      logger: silent,
      handle: async (batch) => {
        expect(batch.length).toBeLessThanOrEqual(200); // about batchSize events, in whole entries
        handed.push(...batch);
      },
    });
    await consumer.start();
    try {
      await waitFor(() => consumer.stats.acked === 250, 'every event acked');
      expect(handed.map((e) => e.event)).toEqual(events);
      expect(handed.slice(98, 102).map((e) => [e.entryId, e.index])).toEqual([
        [entries[0][0], 98],
        [entries[0][0], 99],
        [entries[1][0], 0],
        [entries[1][0], 1],
      ]);
      const [pending] = (await redis.xpending(keys.trafficStream, keys.trafficConsumerGroup)) as [number];
      expect(pending).toBe(0);
    } finally {
      await consumer.stop();
    }
  });

  it('trims the stream to about its cap in events, not entries', async () => {
    const keys = redisKeys(testRedis.prefix);
    const connection = await connect(testRedis.url);
    const publisher = new TrafficPublisher({ redis: connection, prefix: testRedis.prefix, spool: new Spool({ dir, maxBytes: 1 << 20 }), logger: silent, batchSize: 50, maxStreamLength: 100 });
    publisher.start();
    for (let round = 0; round < 40; round++) {
      for (let n = 0; n < 50; n++) publisher.publish(event(round * 50 + n));
      await publisher.flush();
    }
    await publisher.stop();
    connection.disconnect();
    const events = (await redis.xrange(keys.trafficStream, '-', '+')).reduce((sum, [, fields]) => sum + fields.filter((f) => f === 'event').length, 0);
    // 2,000 events published in entries of 50 under a cap of 100 events: each XADD asks for MAXLEN ~ 2
    // entries. `~` trims whole stream nodes only; an entry of 50 events (~10 KB) is past a node's default
    // 4 KB (stream-node-max-bytes), so it sits in a node of its own and the trim is close to exact.
    expect(events).toBeGreaterThanOrEqual(100);
    expect(events).toBeLessThanOrEqual(150);
  });

  it('trims the stream to about its cap in bytes when captured bodies are large', async () => {
    const keys = redisKeys(testRedis.prefix);
    const connection = await connect(testRedis.url);
    // 300 events with 20 KB bodies (6 MB) under a cap of 1 MiB in bytes and the default 100,000 in events
    const publisher = new TrafficPublisher({ redis: connection, prefix: testRedis.prefix, spool: new Spool({ dir, maxBytes: 1 << 20 }), logger: silent, batchSize: 50, maxStreamBytes: 1 << 20 });
    const body = 'y'.repeat(20_000);
    publisher.start();
    for (let round = 0; round < 6; round++) {
      for (let n = 0; n < 50; n++) publisher.publish(event(round * 50 + n, body));
      await publisher.flush();
    }
    await publisher.stop();
    connection.disconnect();
    const entries = await redis.xrange(keys.trafficStream, '-', '+');
    const bytes = entries.reduce((sum, [, fields]) => sum + fields.reduce((s, f) => s + Buffer.byteLength(f), 0), 0);
    // Entries of ~256 KB (12 events) sit in stream nodes of their own, so `~` trims close to exact: 4 entries.
    expect(bytes).toBeGreaterThan(512 * 1024);
    expect(bytes).toBeLessThanOrEqual(1.5 * (1 << 20));
    // the newest events are the ones kept
    expect(entries.at(-1)![1].some((f) => f.includes(event(299).id))).toBe(true);
  });

  it('finds events stored in batch entries by id, reading the tail page by page, only within the depth', async () => {
    const { trafficStream } = redisKeys(testRedis.prefix);
    // 40 entries of 5 events: the newest holds events 195-199, the oldest 0-4.
    for (let entry = 0; entry < 40; entry++) {
      await redis.xadd(trafficStream, '*', ...streamEntryFields(Array.from({ length: 5 }, (_, i) => ({ json: JSON.stringify(event(entry * 5 + i)) }))));
    }
    const id = (n: number) => event(n).id;
    // 25 entries deep reaches events 75-199 (two pages of XREVRANGE)
    expect(await findStoredEventIds(redis, trafficStream, [id(199), id(102), id(3), id(9999)], 25)).toEqual(new Set([id(199), id(102)]));
    expect(await findStoredEventIds(redis, trafficStream, [id(3), id(150)])).toEqual(new Set([id(3), id(150)]));
  });

  it('gathers steady traffic for lingerMs between sends instead of sending what arrived during each round trip', async () => {
    const keys = redisKeys(testRedis.prefix);
    const connection = await connect(testRedis.url);
    const publisher = new TrafficPublisher({ redis: connection, prefix: testRedis.prefix, spool: new Spool({ dir, maxBytes: 1 << 20 }), logger: silent, batchSize: 1000, lingerMs: 100 });
    publisher.start();
    // ten events a millisecond for about 600 ms: a loop sending again after every reply makes an entry of the
    // events of each round trip (about one a millisecond); lingering makes one entry per 100 ms or so
    let n = 0;
    const started = Date.now();
    while (Date.now() - started < 600) {
      for (let i = 0; i < 10; i++) publisher.publish(event(n++));
      await new Promise((r) => setTimeout(r, 1));
    }
    await publisher.flush();
    await publisher.stop();
    connection.disconnect();
    expect(publisher.counters()).toMatchObject({ published: n, spooled: 0, dropped: 0 });
    const entries = await redis.xrange(keys.trafficStream, '-', '+');
    expect(entries.flatMap(([, fields]) => fields.filter((_, i) => i % 2 === 1))).toHaveLength(n);
    expect(entries.length).toBeGreaterThanOrEqual(3);
    expect(entries.length).toBeLessThanOrEqual(12);
  });

  it('sends a full batch at once, without waiting for the linger timer', async () => {
    const keys = redisKeys(testRedis.prefix);
    const connection = await connect(testRedis.url);
    const publisher = new TrafficPublisher({ redis: connection, prefix: testRedis.prefix, spool: new Spool({ dir, maxBytes: 1 << 20 }), logger: silent, batchSize: 20, lingerMs: 60_000 });
    publisher.start();
    publisher.publish(event(0)); // starts the 60 s linger
    await new Promise((r) => setTimeout(r, 20));
    for (let i = 1; i < 45; i++) publisher.publish(event(i)); // two full batches and 5 more
    await waitFor(async () => (await redis.xlen(keys.trafficStream)) === 2, 'two full batches in the stream');
    const entries = await redis.xrange(keys.trafficStream, '-', '+');
    expect(entries.map(([, fields]) => fields.length / 2)).toEqual([20, 20]);
    await publisher.stop(); // the last 5, still lingering, go out on stop
    connection.disconnect();
    expect(await redis.xlen(keys.trafficStream)).toBe(3);
    expect(publisher.counters()).toMatchObject({ published: 45, spooled: 0 });
  });
});
