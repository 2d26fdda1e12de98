import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import type { TrafficEvent } from '@mockyard/contracts';
import { encodeEventJson, publisherRedisOptions, splitIntoEntries, Spool, streamMaxEntries, TrafficPublisher } from './traffic-publisher';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

function event(n: number): TrafficEvent {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
    source: 'proxy',
    method: 'GET',
    url: `http://t.test/${n}`,
    request: { headers: {} },
  };
}

/** A loopback port with nothing listening: Redis is "unreachable" without touching a real one. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise((r) => srv.close(r));
  return port;
}

describe('TrafficPublisher without Redis', () => {
  let dir: string;
  let redis: Redis;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'publisher-'));
    redis = new Redis(`redis://127.0.0.1:${await closedPort()}`, { ...publisherRedisOptions, retryStrategy: () => null });
    redis.on('error', () => {});
  });
  afterEach(() => {
    redis.disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  it('returns at once from publish and spools every event, in order, when Redis is unreachable', async () => {
    const spool = new Spool({ dir, maxBytes: 1024 * 1024 });
    const publisher = new TrafficPublisher({ redis, prefix: 't', spool, logger: silent });
    publisher.start();
    for (let n = 0; n < 5; n++) publisher.publish(event(n));
    expect(publisher.counters().buffered).toBe(5);
    await publisher.flush();
    expect(publisher.counters()).toMatchObject({ published: 0, spooled: 5, dropped: 0, buffered: 0, breaker: 'open' });
    expect(spool.readLines(10).map((l) => (JSON.parse(l.line) as TrafficEvent).url)).toEqual([0, 1, 2, 3, 4].map((n) => `http://t.test/${n}`));
    await publisher.stop();
  });

  it('drops and counts only the events that do not fit in the spool', async () => {
    const oneEventBytes = JSON.stringify(event(0)).length + 1;
    const spool = new Spool({ dir, maxBytes: oneEventBytes * 3 });
    const publisher = new TrafficPublisher({ redis, prefix: 't', spool, logger: silent });
    publisher.start();
    for (let n = 0; n < 5; n++) publisher.publish(event(n));
    await publisher.flush();
    expect(publisher.counters()).toMatchObject({ spooled: 3, dropped: 2 });
    await publisher.stop();
  });

  it('moves the buffer to the spool when it passes its bound', async () => {
    const spool = new Spool({ dir, maxBytes: 1024 * 1024 });
    const warnings: unknown[][] = [];
    const publisher = new TrafficPublisher({ redis, prefix: 't', spool, logger: { ...silent, warn: (...args: unknown[]) => warnings.push(args) }, maxBufferedEvents: 2 });
    publisher.start();
    for (let n = 0; n < 6; n++) publisher.publish(event(n));
    expect(publisher.counters()).toMatchObject({ buffered: 0, spooled: 6 });
    // said once (then at most every 10 s), not only counted
    expect(warnings).toEqual([[{ events: 3, bytes: expect.any(Number), spooledSoFar: 3 }, 'traffic buffer over its bound; events moved to the spool']]);
    await publisher.stop();
  });

  // (Redis unreachable, as above: the events end in the spool, where their order and count can be read.)
  describe('TrafficPublisher.publishLater (events built in batches)', () => {
    const spooledUrls = (spool: Spool) => spool.readLines(100).map((l) => (JSON.parse(l.line) as TrafficEvent).url);

    it('builds the events when the drain runs, all together, in the order they were handed over with publish', async () => {
      const spool = new Spool({ dir, maxBytes: 1024 * 1024 });
      const publisher = new TrafficPublisher({ redis, prefix: 't', spool, logger: silent, lingerMs: 50 });
      publisher.start();
      const built: number[] = [];
      const later = (n: number) => () => {
        built.push(n);
        return { event: event(n) };
      };
      publisher.publishLater(later(0));
      publisher.publishLater(later(1));
      expect(built).toEqual([]);
      expect(publisher.counters().buffered).toBe(2);
      publisher.publish(event(2)); // goes after the two handed over before it
      expect(built).toEqual([0, 1]);
      publisher.publishLater(later(3));
      publisher.publishLater(later(4));
      await new Promise((r) => setTimeout(r, 20));
      expect(built).toEqual([0, 1]); // still lingering
      await publisher.flush();
      expect(built).toEqual([0, 1, 3, 4]);
      expect(spooledUrls(spool)).toEqual([0, 1, 2, 3, 4].map((n) => `http://t.test/${n}`));
      await publisher.stop();
    });

    it('builds a full batch at once, so what waits unbuilt stays bounded', () => {
      const publisher = new TrafficPublisher({ redis, prefix: 't', spool: new Spool({ dir, maxBytes: 1024 * 1024 }), logger: silent, batchSize: 3, lingerMs: 60_000 });
      let built = 0;
      const later = (n: number) => () => {
        built += 1;
        return { event: event(n) };
      };
      publisher.publishLater(later(0));
      publisher.publishLater(later(1));
      expect(built).toBe(0);
      publisher.publishLater(later(2));
      expect(built).toBe(3);
      expect(publisher.counters().buffered).toBe(3);
    });

    it('counts and logs an event whose build throws, and loses no other', async () => {
      const spool = new Spool({ dir, maxBytes: 1024 * 1024 });
      const errors: unknown[][] = [];
      const publisher = new TrafficPublisher({ redis, prefix: 't', spool, logger: { ...silent, error: (...args: unknown[]) => errors.push(args) } });
      publisher.start();
      publisher.publishLater(() => ({ event: event(0) }));
      publisher.publishLater(() => {
        throw new Error('broken exchange');
      });
      publisher.publishLater(() => ({ event: event(2) }));
      await publisher.flush();
      expect(publisher.counters()).toMatchObject({ spooled: 2, dropped: 1, buffered: 0 });
      expect(spooledUrls(spool)).toEqual(['http://t.test/0', 'http://t.test/2']);
      expect(errors).toEqual([[{ err: expect.objectContaining({ message: 'broken exchange' }) }, 'traffic event not built; dropped']]);
      await publisher.stop();
    });

    it('spools what is handed over after stop() at once', async () => {
      const publisher = new TrafficPublisher({ redis, prefix: 't', spool: new Spool({ dir, maxBytes: 1024 * 1024 }), logger: silent });
      publisher.start();
      await publisher.stop();
      publisher.publishLater(() => ({ event: event(9) }));
      expect(publisher.counters()).toMatchObject({ spooled: 1, buffered: 0 });
      const reopened = new Spool({ dir, maxBytes: 1024 * 1024 });
      reopened.open();
      expect(spooledUrls(reopened)).toEqual(['http://t.test/9']);
      reopened.close();
    });
  });
});

describe('TrafficPublisher after stop', () => {
  it('spools an event published after stop() so the next start replays it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'publisher-late-'));
    const redis = new Redis(`redis://127.0.0.1:${await closedPort()}`, { ...publisherRedisOptions, retryStrategy: () => null });
    redis.on('error', () => {});
    try {
      const publisher = new TrafficPublisher({ redis, prefix: 't', spool: new Spool({ dir, maxBytes: 1024 * 1024 }), logger: silent });
      publisher.start();
      await publisher.stop();
      publisher.publish(event(7));
      expect(publisher.counters()).toMatchObject({ spooled: 1, dropped: 0 });
      const reopened = new Spool({ dir, maxBytes: 1024 * 1024 });
      reopened.open();
      expect(reopened.readLines(10).map((l) => (JSON.parse(l.line) as TrafficEvent).url)).toEqual(['http://t.test/7']);
      reopened.close();
    } finally {
      redis.disconnect();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('encodeEventJson', () => {
  it.each([['{"a":"plain ascii"}'], ['{"a":"café"}'], ['{"a":"Łódź"}'], ['{"a":"emoji 🚀"}'], ['{"a":"\\u0000 escaped"}']])('encodes %s as UTF-8', (json) => {
    expect(encodeEventJson(json).equals(Buffer.from(json, 'utf8'))).toBe(true);
  });
});

describe('splitIntoEntries', () => {
  const e = (bytes: number, body = 0) => ({ json: 'x'.repeat(bytes), size: bytes + body, ...(body ? { responseBody: Buffer.alloc(body) } : {}) });

  it('keeps a batch of small events in one entry', () => {
    const events = Array.from({ length: 200 }, () => e(1000));
    expect(splitIntoEntries(events, 256 * 1024).map((x) => x.length)).toEqual([200]);
  });

  it('splits large captured bodies into entries within the bound, in order, at least one event each', () => {
    const events = [e(100), e(100, 100_000), e(100, 100_000), e(100, 300_000), e(100)];
    const entries = splitIntoEntries(events, 256 * 1024);
    expect(entries.map((x) => x.length)).toEqual([3, 1, 1]);
    expect(entries.flat()).toEqual(events);
    expect(splitIntoEntries([], 1)).toEqual([]);
  });
});

describe('streamMaxEntries', () => {
  const entryOf = (events: number, bytesEach: number) => Array.from({ length: events }, () => ({ size: bytesEach }));
  it.each([
    // events in the entry, bytes each, cap in events, cap in bytes, MAXLEN in entries
    [1, 500, 100_000, 512 * 1024 * 1024, 100_000], // small events: the cap in events binds
    [200, 1000, 100_000, 512 * 1024 * 1024, 500],
    [2, 100 * 1024, 100_000, 512 * 1024 * 1024, 2621], // 100 KiB bodies: the cap in bytes binds (~512 MiB)
    [1, 300 * 1024, 100_000, 512 * 1024 * 1024, 1747],
    [3, 10, 100, 1_000_000, 34], // rounds the cap in events up, as before
    [1, 2 * 1024 * 1024, 100_000, 1024 * 1024, 1], // one entry larger than the whole cap: keep that one
  ])('an entry of %p events of %p bytes under caps of %p events and %p bytes: MAXLEN %p', (events, bytesEach, maxEvents, maxBytes, expected) => {
    expect(streamMaxEntries(entryOf(events, bytesEach), maxEvents, maxBytes)).toBe(expected);
  });
});
