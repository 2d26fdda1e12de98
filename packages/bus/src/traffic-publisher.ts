import CircuitBreaker from 'opossum';
import type Redis from 'ioredis';
import { redisKeys, type TrafficEvent } from '@mockyard/contracts';
import type { BusLogger } from './bus-logger';
import type { Spool } from './spool';
import { UncopiedCommand } from './uncopied-command';
import { eventIdOf, findStoredEventIds, mayHaveReachedRedis } from './traffic-publisher-dedupe';
import { encodeTrafficEvent, inlineTrafficEvent, streamEntryFields, type DetachedBodies, type EncodedTrafficEvent } from './traffic-publisher-json';

export { DETACHED_BODY_MIN_BYTES, encodeEventJson, encodeTrafficEvent, inlineTrafficEvent, streamEntryFields, type DetachedBodies, type EncodedTrafficEvent } from './traffic-publisher-json';

export { Spool, type SpoolOptions, type SpoolLine } from './spool';

export interface TrafficPublisherOptions {
  /**
   * Connection used only for XADD. Create it with `publisherRedisOptions` (no offline queue) so that
   * commands fail at once while Redis is away instead of piling up in memory.
   */
  redis: Redis;
  prefix: string;
  spool: Spool;
  logger: BusLogger;
  /**
   * Approximate cap of the stream, in events. Entries carry batches, so each XADD trims the stream to
   * `MAXLEN ~ maxStreamLength / (events in that entry)` entries.
   */
  maxStreamLength?: number;
  /**
   * Approximate cap of the stream, in bytes of events (default 512 MiB): each XADD also trims the stream to
   * as many entries as fit in it at that entry's size. A cap in events alone let 100 KiB bodies fill Redis
   * with ~10 GB (100,000 events), and Redis then spent a tenth of the machine's CPU faulting in fresh pages.
   */
  maxStreamBytes?: number;
  /** In-memory buffer bounds; past either, the buffer is moved to the spool. */
  maxBufferedEvents?: number;
  maxBufferedBytes?: number;
  /** Most events sent in one round trip (as one stream entry when they fit in ENTRY_MAX_BYTES). */
  batchSize?: number;
  /** How often a non-empty spool is retried while Redis is away. */
  retryIntervalMs?: number;
  /**
   * How long the publisher gathers events before a send (default 10 ms; 0 sends on the next turn of the
   * event loop): before the first of a burst, and between sends under steady traffic, when the drain goes
   * on only while a full batch is waiting. A full batch goes at once. Larger batches mean fewer round trips,
   * wake-ups and syscalls, in the publisher and in Redis, for the same events: at full load through the
   * gateway, 10 ms instead of 2 ms served 1.18× the requests/s with 17% less gateway CPU per request
   * (bench/gateway.mjs, same-run A/B; Redis also spent less per event). Events reach the stream that much later, which a traffic log never notices.
   */
  lingerMs?: number;
  breaker?: { timeoutMs?: number; resetTimeoutMs?: number; errorThresholdPercentage?: number };
}

export interface TrafficPublisherCounters {
  /** Events XADDed straight from the buffer. */
  published: number;
  /** Events written to the spool. */
  spooled: number;
  /** Spooled events XADDed later. */
  replayed: number;
  /** Events lost because the spool was full (or a spooled line was unreadable, or a deferred event failed to build). */
  dropped: number;
  /** Events waiting in memory now. */
  buffered: number;
  /** Spooled bytes not yet replayed. */
  spoolPendingBytes: number;
  breaker: 'closed' | 'open' | 'halfOpen';
}

/** ioredis options for the publisher's own connection: fail fast, never queue while disconnected. */
export const publisherRedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  lazyConnect: false,
  retryStrategy: (attempt: number) => Math.min(200 * attempt, 2000),
} as const;

/** An event waiting in memory: its JSON and detached bodies (the spool gets them inline). */
type Pending = EncodedTrafficEvent;

/** What `publishLater` is given: builds the event (and says which of its bodies are detached) when called. */
export type DeferredTrafficEvent = () => { event: TrafficEvent; detached?: DetachedBodies };

/** One event of an XADD: an encoded event, or a spooled line (bodies inline); `size` as EncodedTrafficEvent's. */
type Outgoing = Pick<EncodedTrafficEvent, 'requestBody' | 'responseBody' | 'size'> & { json: string | Buffer };

/** A round trip that added only the first `added` events (the entries before the one that failed). */
class PartialPublishError extends Error {
  constructor(
    readonly added: number,
    override readonly cause: Error,
  ) {
    super(`published ${added} events, then: ${cause.message}`);
  }
}

/** Bytes of events sent in one round trip: large captured bodies make smaller batches. */
const BATCH_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Bytes of events in one stream entry (at least one event): a batch of small events is one entry, large
 * captured bodies make entries of a few events, several per round trip. One entry per 4 MB batch of
 * 100 KiB bodies cost Redis a third more CPU per event than entries of one event (its allocations), and
 * one round trip per 256 KB entry could not keep up with the gateway at full load.
 */
const ENTRY_MAX_BYTES = 256 * 1024;

/** Default of `maxStreamBytes`. */
export const DEFAULT_MAX_STREAM_BYTES = 512 * 1024 * 1024;

/** Longest silence between two "buffer over its bound" warnings while it keeps happening. */
const OVERFLOW_WARN_INTERVAL_MS = 10_000;

/** The longest prefix of `lines` within `maxBytes` (at least one line). */
function capLinesToBytes<T extends { line: string }>(lines: T[], maxBytes: number): T[] {
  let bytes = 0;
  for (let i = 0; i < lines.length; i++) {
    bytes += lines[i].line.length;
    if (i > 0 && bytes > maxBytes) return lines.slice(0, i);
  }
  return lines;
}

/**
 * Publishes traffic events to the Redis stream without ever blocking the caller: `publish` only
 * appends to a bounded buffer; a single drain loop XADDs batches, one round trip each, as stream entries
 * that carry many events (see TRAFFIC_EVENT_FIELD), through an opossum circuit breaker.
 * When Redis fails (or the breaker is open), events go to the append-only spool; once anything is
 * spooled, newer events queue behind it there, and the spool is replayed in order when Redis answers
 * again, so the stream keeps the order in which exchanges finished.
 */
export class TrafficPublisher {
  private readonly stream: string;
  private readonly maxStreamLength: number;
  private readonly maxStreamBytes: number;
  private readonly maxBufferedEvents: number;
  private readonly maxBufferedBytes: number;
  private readonly batchSize: number;
  private readonly retryIntervalMs: number;
  private readonly lingerMs: number;
  private readonly breaker: CircuitBreaker<[Outgoing[]], number>;
  private buffer: Pending[] = [];
  private bufferedBytes = 0;
  /** Events handed to publishLater, built and encoded together when the drain next runs (at most batchSize). */
  private deferred: DeferredTrafficEvent[] = [];
  private draining: Promise<void> | undefined;
  /** A drain about to start: when its linger timer fires, or on the next turn (no timer: a full batch waits). */
  private scheduled: { lingerTimer?: NodeJS.Timeout } | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  /**
   * Events whose XADD was sent but not answered (the connection dropped or the breaker timed out): Redis
   * may have stored them. Before one of these is replayed, the stream's tail is searched for its id.
   */
  private readonly uncertainIds = new Set<string>();
  private readonly counts = { published: 0, spooled: 0, replayed: 0, dropped: 0 };
  /** When the last "buffer over its bound" warning was logged (at most one per OVERFLOW_WARN_INTERVAL_MS). */
  private lastOverflowWarnAt = -Infinity;

  constructor(private readonly options: TrafficPublisherOptions) {
    this.stream = redisKeys(options.prefix).trafficStream;
    this.maxStreamLength = options.maxStreamLength ?? 100_000;
    this.maxStreamBytes = options.maxStreamBytes ?? DEFAULT_MAX_STREAM_BYTES;
    this.maxBufferedEvents = options.maxBufferedEvents ?? 10_000;
    this.maxBufferedBytes = options.maxBufferedBytes ?? 64 * 1024 * 1024;
    this.batchSize = options.batchSize ?? 200;
    this.retryIntervalMs = options.retryIntervalMs ?? 1000;
    this.lingerMs = options.lingerMs ?? 10;
    this.breaker = new CircuitBreaker((events: Outgoing[]) => this.xaddEvents(events), {
      name: 'traffic-stream',
      timeout: options.breaker?.timeoutMs ?? 3000,
      resetTimeout: options.breaker?.resetTimeoutMs ?? 1000,
      errorThresholdPercentage: options.breaker?.errorThresholdPercentage ?? 50,
    });
    this.breaker.on('open', () => options.logger.warn({ stream: this.stream }, 'traffic stream breaker opened; spooling events'));
    this.breaker.on('close', () => {
      options.logger.info({ stream: this.stream }, 'traffic stream breaker closed');
      this.scheduleDrain();
    });
    this.breaker.on('halfOpen', () => this.scheduleDrain());
  }

  /** Opens the spool and replays whatever an earlier process left in it. */
  start(): void {
    this.options.spool.open();
    this.retryTimer = setInterval(() => {
      if (this.options.spool.hasPending || this.waiting) this.scheduleDrain();
    }, this.retryIntervalMs);
    this.retryTimer.unref();
    this.scheduleDrain();
  }

  /**
   * Hands an event over; returns at once. Serialisation happens here, I/O later in the drain loop.
   * `detached` carries the bytes of large text bodies the producer kept as bytes (see DetachedBodies).
   */
  publish(event: TrafficEvent, detached?: DetachedBodies): void {
    // Events handed to publishLater before this one go first: the stream keeps the order of hand-over.
    if (this.deferred.length) this.buildDeferred();
    const encoded = encodeTrafficEvent(event, detached);
    if (this.stopped) {
      // An exchange that finished after stop() (its response closed after the servers had): the spool is
      // closed by then, so open it for this one line; the next start replays it.
      this.options.spool.open();
      this.spoolAll([encoded]);
      this.options.spool.close();
      return;
    }
    this.buffer.push(encoded);
    this.bufferedBytes += encoded.size;
    if (this.buffer.length > this.maxBufferedEvents || this.bufferedBytes > this.maxBufferedBytes) {
      const events = this.buffer.length;
      const bytes = this.bufferedBytes;
      this.spoolAll(this.takeBuffer(events));
      // Redis is up but slower than the traffic (or the drain is stuck): say so, not only in the counters.
      if (Date.now() - this.lastOverflowWarnAt >= OVERFLOW_WARN_INTERVAL_MS) {
        this.lastOverflowWarnAt = Date.now();
        this.options.logger.warn({ events, bytes, spooledSoFar: this.counts.spooled }, 'traffic buffer over its bound; events moved to the spool');
      }
    }
    this.scheduleDrain();
  }

  /**
   * Like `publish`, for a producer on a hot path: `build` runs later, when the drain next runs (after the
   * linger, or after the round trip in flight), together with every other event handed over meanwhile.
   * Building and encoding events in one loop instead of one per exchange between the exchanges' own work
   * cost the gateway 10–12% less CPU per small request at full load, and the engine 24% (BENCHMARKS.md,
   * "Capture in batches"): the same code and data stay in the CPU's caches across the batch. `build` must
   * only read what no longer changes; an exception from it is logged and counted as dropped, and loses that
   * event only.
   */
  publishLater(build: DeferredTrafficEvent): void {
    if (this.stopped) {
      this.publishBuilt(build);
      return;
    }
    this.deferred.push(build);
    // The batch is full: build it now, so what waits unbuilt stays bounded.
    if (this.deferred.length >= this.batchSize) this.buildDeferred();
    else this.scheduleDrain();
  }

  counters(): TrafficPublisherCounters {
    return {
      ...this.counts,
      buffered: this.waiting,
      spoolPendingBytes: this.options.spool.pendingBytes,
      breaker: this.breaker.opened ? 'open' : this.breaker.halfOpen ? 'halfOpen' : 'closed',
    };
  }

  /** Resolves once nothing is buffered and the spool is empty (or the breaker is open); for tests and shutdown. */
  async flush(): Promise<void> {
    for (;;) {
      if (this.draining) await this.draining;
      if (this.waiting === 0 && (!this.options.spool.hasPending || this.breaker.opened)) return;
      await this.runDrain();
    }
  }

  /** Publishes what it can, spools the rest, and closes the spool. */
  async stop(): Promise<void> {
    if (this.retryTimer) clearInterval(this.retryTimer);
    await this.flush();
    this.buildDeferred();
    this.stopped = true;
    this.spoolAll(this.takeBuffer(this.buffer.length));
    this.breaker.shutdown();
    this.options.spool.close();
  }

  /** Events in memory: encoded, and handed to publishLater but not built yet. */
  private get waiting(): number {
    return this.buffer.length + this.deferred.length;
  }

  private buildDeferred(): void {
    const deferred = this.deferred;
    this.deferred = [];
    for (const build of deferred) this.publishBuilt(build);
  }

  private publishBuilt(build: DeferredTrafficEvent): void {
    let built: ReturnType<DeferredTrafficEvent>;
    try {
      built = build();
    } catch (err) {
      this.counts.dropped += 1;
      this.options.logger.error({ err }, 'traffic event not built; dropped');
      return;
    }
    this.publish(built.event, built.detached);
  }

  private scheduleDrain(): void {
    if (this.draining || this.stopped) return;
    const now = this.lingerMs <= 0 || this.waiting >= this.batchSize;
    if (this.scheduled && (!this.scheduled.lingerTimer || !now)) return;
    // A full batch does not wait for the linger timer.
    clearTimeout(this.scheduled?.lingerTimer);
    const run = () => {
      this.scheduled = undefined;
      if (this.draining || this.stopped) return;
      void this.runDrain();
    };
    if (now) {
      this.scheduled = {};
      setImmediate(run);
    } else {
      this.scheduled = { lingerTimer: setTimeout(run, this.lingerMs) };
    }
  }

  private runDrain(): Promise<void> {
    const run: Promise<void> = this.drain().finally(() => {
      if (this.draining === run) this.draining = undefined;
      if (!this.stopped && this.waiting && !this.breaker.opened) this.scheduleDrain();
    });
    this.draining = run;
    return run;
  }

  private async drain(): Promise<void> {
    try {
      for (;;) {
        this.buildDeferred();
        if (this.options.spool.hasPending) {
          // Newer events wait behind the spooled ones so the stream keeps their order.
          if (this.buffer.length) this.spoolAll(this.takeBuffer(this.buffer.length));
          if (this.breaker.opened || !(await this.replayBatch())) return;
          continue;
        }
        if (this.buffer.length === 0) return;
        const batch = this.takeBuffer(this.batchCount());
        if (this.breaker.opened) {
          this.spoolAll(batch);
          return;
        }
        const added = await this.send(
          batch,
          batch.map((p) => p.id),
        );
        this.counts.published += added;
        if (added < batch.length) this.spoolAll(batch.slice(added));
        // Under steady traffic, what arrived during the round trip is a fraction of a batch: it lingers
        // (scheduled by runDrain) instead of going out at once, or every round trip would carry a handful
        // of events (15 on average at 14,000 events/s: ten times the XADDs, and more CPU per event in the
        // gateway and in Redis). A full batch goes on at once, and so does the replay of what this send spooled.
        if (this.waiting < this.batchSize && this.lingerMs > 0 && !this.options.spool.hasPending) return;
      }
    } catch (err) {
      this.options.logger.error({ err }, 'traffic publisher drain failed');
    }
  }

  /** XADDs the next spooled lines; says whether all of them went through. */
  private async replayBatch(): Promise<boolean> {
    const spool = this.options.spool;
    const lines = capLinesToBytes(spool.readLines(this.batchSize), BATCH_MAX_BYTES);
    if (lines.length === 0) return true;
    const readable = lines.filter((l) => isJsonObjectLine(l.line));
    if (readable.length < lines.length) {
      const unreadable = lines.length - readable.length;
      this.counts.dropped += unreadable;
      this.options.logger.warn({ unreadable, spool: spool.path }, 'unreadable spool lines dropped');
    }
    const ids = new Map(readable.map((l) => [l, eventIdOf(l.line)]));
    const uncertain = [...ids.values()].filter((id): id is string => id !== undefined && this.uncertainIds.has(id));
    let alreadyStored = new Set<string>();
    if (uncertain.length) {
      try {
        alreadyStored = await findStoredEventIds(this.options.redis, this.stream, uncertain);
      } catch {
        return false;
      }
      for (const id of uncertain) this.uncertainIds.delete(id);
      this.counts.replayed += alreadyStored.size;
    }
    const toSend = readable.filter((l) => !alreadyStored.has(ids.get(l) ?? ''));
    const added = toSend.length
      ? await this.send(
          toSend.map((l) => ({ json: l.line, size: l.line.length })),
          toSend.map((l) => ids.get(l) ?? ''),
        )
      : 0;
    this.counts.replayed += added;
    if (added === toSend.length) {
      spool.commit(lines[lines.length - 1].endOffset);
      return true;
    }
    // Everything before the first line that did not go out is done (sent, found, or unreadable).
    const firstUnsent = lines.indexOf(toSend[added]);
    if (firstUnsent > 0) spool.commit(lines[firstUnsent - 1].endOffset);
    return false;
  }

  /** Number of events that reached the stream (a prefix of `events`). Never throws. */
  private async send(events: Outgoing[], ids: string[]): Promise<number> {
    try {
      return await this.breaker.fire(events);
    } catch (err) {
      const added = err instanceof PartialPublishError ? err.added : 0;
      const cause = err instanceof PartialPublishError ? err.cause : err;
      if (mayHaveReachedRedis(cause as Error & { code?: string })) for (const id of ids.slice(added)) if (id) this.uncertainIds.add(id);
      return added;
    }
  }

  /**
   * XADDs `events` in one round trip, as entries of up to ENTRY_MAX_BYTES of events each (a batch of
   * small events is a single entry: one command per batch instead of one per event, less work for the
   * gateway, Redis and the loggers). Each entry's MAXLEN comes from the caps in events and in bytes
   * (streamMaxEntries). The
   * commands are written into the corked socket and go out in one writev, without a pipeline's
   * concatenation of all of them, nor ioredis's concatenation of each command (UncopiedCommand).
   */
  private async xaddEvents(events: Outgoing[]): Promise<number> {
    const entries = splitIntoEntries(events, ENTRY_MAX_BYTES);
    const redis = this.options.redis;
    const socket = redis.status === 'ready' ? redis.stream : undefined;
    socket?.cork();
    let replies: Promise<unknown>[];
    try {
      replies = entries.map((entry) => {
        const maxEntries = streamMaxEntries(entry, this.maxStreamLength, this.maxStreamBytes);
        return UncopiedCommand.send(redis, 'xadd', [this.stream, 'MAXLEN', '~', String(maxEntries), '*', ...streamEntryFields(entry)]);
      });
    } finally {
      socket?.uncork();
    }
    const results = await Promise.allSettled(replies);
    let added = 0;
    for (let i = 0; i < results.length; i++) {
      const result = results[i];
      if (result.status === 'rejected') throw new PartialPublishError(added, result.reason as Error);
      added += entries[i].length;
    }
    return added;
  }

  /** Events for the next round trip: up to `batchSize`, and about BATCH_MAX_BYTES (at least one). */
  private batchCount(): number {
    let bytes = 0;
    let count = 0;
    while (count < this.buffer.length && count < this.batchSize && (count === 0 || bytes + this.buffer[count].size <= BATCH_MAX_BYTES)) {
      bytes += this.buffer[count].size;
      count += 1;
    }
    return count;
  }

  private takeBuffer(count: number): Pending[] {
    const taken = this.buffer.splice(0, count);
    for (const p of taken) this.bufferedBytes -= p.size;
    return taken;
  }

  private spoolAll(events: Pending[]): void {
    for (const e of events) {
      let written = false;
      try {
        written = this.options.spool.tryAppend(inlineTrafficEvent(e));
      } catch (err) {
        this.options.logger.error({ err, eventId: e.id }, 'spool write failed');
      }
      if (written) {
        this.counts.spooled += 1;
        continue;
      }
      this.counts.dropped += 1;
      this.uncertainIds.delete(e.id);
      this.options.logger.warn({ eventId: e.id, spoolPendingBytes: this.options.spool.pendingBytes }, 'traffic event dropped: spool full');
    }
  }
}

/**
 * MAXLEN for the XADD of `entry`: the stream's caps in events and in bytes as a number of entries like this
 * one (at least 1). Entries of one publisher are alike under steady traffic; where sizes mix, each XADD
 * trims by its own entry's size, so the caps hold approximately, as `MAXLEN ~` does anyway.
 */
export function streamMaxEntries(entry: readonly Pick<Outgoing, 'size'>[], maxEvents: number, maxBytes: number): number {
  let bytes = 0;
  for (const e of entry) bytes += e.size;
  return Math.max(1, Math.min(Math.ceil(maxEvents / entry.length), Math.floor(maxBytes / Math.max(1, bytes))));
}

/** Consecutive runs of `events` of at most `maxBytes` each (at least one event per run). */
export function splitIntoEntries<T extends Outgoing>(events: T[], maxBytes: number): T[][] {
  const entries: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const e of events) {
    if (current.length && bytes + e.size > maxBytes) {
      entries.push(current);
      current = [];
      bytes = 0;
    }
    current.push(e);
    bytes += e.size;
  }
  if (current.length) entries.push(current);
  return entries;
}

function isJsonObjectLine(line: string): boolean {
  if (!line.startsWith('{') || !line.endsWith('}')) return false;
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}
