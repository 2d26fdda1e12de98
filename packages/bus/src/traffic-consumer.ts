import type Redis from 'ioredis';
import { redisKeys, TRAFFIC_EVENT_FIELD, type TrafficEvent } from '@mockyard/contracts';
import type { BusLogger } from './bus-logger';
import { decodeTrafficEntry } from './decode-traffic-entry';

/** One decoded event of a stream entry (an entry carries a batch of events) handed to the batch handler. */
export interface TrafficEntry {
  entryId: string;
  /** The event's position in its entry. */
  index: number;
  event: TrafficEvent;
  /** The event's JSON as it was on the stream (kept for dead-lettering rejected events). */
  raw: string;
  /** Body fields of the event as they were (`[name, value, …]`), for the same reason. */
  bodyFields: string[];
}

/** What a dead letter keeps of an event: its fields as they were, and why it was set aside. */
type DeadLetter = Omit<TrafficEntry, 'event'> & { reason: string };

/**
 * What the handler reports after it committed: events it could not store for a reason that retrying
 * will not fix (the database rejected the row). They go to the dead letters; an entry is acked once
 * each of its events is stored or dead-lettered.
 */
export interface TrafficBatchOutcome {
  rejected?: { entry: TrafficEntry; reason: string }[];
}

/** Stores a batch; resolves only after the commit. Throwing means "nothing stored": nothing is acked. */
export type TrafficBatchHandler = (entries: TrafficEntry[]) => Promise<TrafficBatchOutcome | void>;

export interface TrafficConsumerOptions {
  /** Connection for acks, claims and dead letters; the consumer duplicates it for its blocking reads. */
  redis: Redis;
  prefix: string;
  consumerName: string;
  /** Events per batch handed over: reads ask for as many entries as hold about this many at the recent events per entry. */
  batchSize: number;
  /**
   * Bound of a batch's bytes (the entries' JSON): reads ask for as many entries as fit at the sizes seen
   * lately, and a batch stops collecting once it holds this many. Large captured bodies then make smaller
   * batches instead of one insert of batchSize × body size held in memory in several forms at once.
   * Default: no bound beyond batchSize.
   */
  batchMaxBytes?: number;
  /** How long to keep collecting after the first entry of a batch arrived (0: hand over at once). */
  batchMaxWaitMs: number;
  /** Pending entries idle longer than this (their consumer died) are claimed by this one. */
  claimIdleMs: number;
  deadLetterMaxLength: number;
  handle: TrafficBatchHandler;
  logger: BusLogger;
  /** Pause after the first failed batch before it is retried (default 1000); doubles per failure in a row. */
  retryDelayMs?: number;
  /** Longest pause between retries while failures continue (default 10000). */
  retryMaxDelayMs?: number;
}

export interface TrafficConsumerStats {
  batches: number;
  /** Events stored and acked. */
  acked: number;
  /** Events moved to the dead letters (and acked). */
  deadLettered: number;
  /** Entries claimed from dead consumers. */
  claimed: number;
  failedBatches: number;
  /**
   * Stream entries (each a batch of events) this consumer found lost to the stream's cap before they were
   * stored: pending ones trimmed before their retry, and ones trimmed before the group read them at all
   * (counted once for the group, by the consumer that saw it first: summed over every logger, the group's loss).
   */
  trimmed: number;
}

type RawEntry = [id: string, fields: string[] | null];

/**
 * Reads the traffic stream as one member of the logger's consumer group: at-least-once delivery with
 * ack after the handler committed, stale pending entries of dead consumers claimed back (XAUTOCLAIM),
 * undecodable entries moved to the dead-letter stream with their reason, entries the stream's cap trimmed
 * before they were stored counted and logged (`stats.trimmed`).
 */
export class TrafficConsumer {
  readonly stats: TrafficConsumerStats = { batches: 0, acked: 0, deadLettered: 0, claimed: 0, failedBatches: 0, trimmed: 0 };
  private readonly keys: ReturnType<typeof redisKeys>;
  private reader?: Redis;
  private loop?: Promise<void>;
  private stopping = false;
  /** Failed batches or loop turns since the last stored batch: drives the retry backoff. */
  private failuresInARow = 0;
  private wake?: () => void;
  /** Moving average of an entry's bytes, for the COUNT of the next read (batchMaxBytes). */
  private entryBytes = 0;
  /** Moving average of the events in an entry, for the COUNT of the next read (batchSize is in events). */
  private entryEvents = 0;

  constructor(private readonly options: TrafficConsumerOptions) {
    this.keys = redisKeys(options.prefix);
  }

  get isRunning(): boolean {
    return this.loop !== undefined && !this.stopping;
  }

  /** Creates the group if needed (from the start of the stream) and starts the read loop. */
  async start(): Promise<void> {
    if (this.loop) return;
    await this.ensureGroup();
    this.reader = this.options.redis.duplicate({ lazyConnect: true });
    this.reader.on('error', (err) => this.options.logger.debug({ err: err.message }, 'traffic reader connection error'));
    await this.reader.connect();
    this.loop = this.run();
  }

  /**
   * Stops reading at once (a blocked read is cut off). A batch already in the handler may finish and be
   * acked within `graceMs` — it committed, so that is safe; after that it is abandoned unacked and
   * another consumer claims it later. Entries read but not handled stay pending.
   */
  async stop(graceMs = 5000): Promise<void> {
    if (!this.loop || this.stopping) return;
    this.stopping = true;
    this.wake?.();
    this.reader?.disconnect();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), graceMs);
    });
    const outcome = await Promise.race([this.loop.then(() => 'done' as const), timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') this.options.logger.warn({ graceMs }, 'traffic batch abandoned unacked at shutdown');
  }

  private async run(): Promise<void> {
    const { logger } = this.options;
    // Our own pending entries first: a restart under the same consumer name resumes what it had read.
    let readOwnPending = true;
    let nextClaimAt = 0;
    while (!this.stopping) {
      try {
        let entries: RawEntry[];
        if (Date.now() >= nextClaimAt) {
          nextClaimAt = Date.now() + this.claimPeriodMs();
          await this.countTrimmed();
          entries = await this.claimStale();
          if (entries.length === 0) continue;
        } else if (readOwnPending) {
          entries = await this.read('0', 0, this.readCount(this.options.batchSize));
          if (entries.length === 0) {
            readOwnPending = false;
            continue;
          }
        } else {
          entries = await this.collectBatch();
        }
        if (entries.length === 0 || this.stopping) continue;
        const handled = await this.process(entries);
        if (!handled) {
          readOwnPending = true;
          await this.pause(this.nextRetryDelayMs());
        } else {
          this.failuresInARow = 0;
        }
      } catch (err) {
        if (this.stopping) break;
        const message = (err as Error).message;
        if (message.includes('NOGROUP')) {
          // The stream (and with it the group) was deleted: recreate both and carry on.
          logger.warn({ err: message }, 'traffic consumer group missing; recreating it');
          await this.ensureGroup().catch(() => undefined);
          continue;
        }
        const delayMs = this.nextRetryDelayMs();
        logger.warn({ err: message, retryInMs: delayMs, consumer: this.options.consumerName }, 'traffic consumer loop failed; retrying');
        readOwnPending = true;
        await this.pause(delayMs);
      }
    }
  }

  /** Exponential backoff over failures in a row (a database outage), reset by the next stored batch. */
  private nextRetryDelayMs(): number {
    const first = this.options.retryDelayMs ?? 1000;
    const max = Math.max(first, this.options.retryMaxDelayMs ?? 10_000);
    const delayMs = Math.min(first * 2 ** this.failuresInARow, max);
    this.failuresInARow++;
    return delayMs;
  }

  private claimPeriodMs(): number {
    return Math.min(Math.max(Math.floor(this.options.claimIdleMs / 2), 50), 5000);
  }

  /**
   * Blocks for the first entries, then keeps reading until the batch is full (batchSize events or
   * batchMaxBytes) or its wait is over.
   */
  private async collectBatch(): Promise<RawEntry[]> {
    const { batchSize, batchMaxWaitMs } = this.options;
    const maxBytes = this.options.batchMaxBytes ?? Infinity;
    const blockMs = Math.max(this.claimPeriodMs(), 50);
    // Entries trimmed unread can be counted only until the group reads past them: just before it does.
    await this.countTrimmed();
    const batch = await this.read('>', blockMs, this.readCount(batchSize));
    let bytes = entriesBytes(batch);
    let events = entriesEvents(batch);
    if (batch.length === 0 || events >= batchSize || bytes >= maxBytes || batchMaxWaitMs <= 0) return batch;
    const deadline = Date.now() + batchMaxWaitMs;
    while (events < batchSize && bytes < maxBytes && !this.stopping) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      const more = await this.read('>', left, this.readCount(batchSize - events, maxBytes - bytes));
      if (more.length === 0) break;
      batch.push(...more);
      bytes += entriesBytes(more);
      events += entriesEvents(more);
    }
    return batch;
  }

  /**
   * How many entries to ask for: about `events` events at the recent events per entry, and as many
   * entries as fit in `bytesLeft` at the recent entry size.
   */
  private readCount(events: number, bytesLeft = this.options.batchMaxBytes ?? Infinity): number {
    const entries = this.entryEvents > 1 ? Math.max(1, Math.round(events / this.entryEvents)) : events;
    return entriesThatFit(entries, bytesLeft, this.entryBytes);
  }

  private async read(from: '0' | '>', blockMs: number, count: number): Promise<RawEntry[]> {
    const reader = this.reader!;
    const { trafficStream, trafficConsumerGroup } = this.keys;
    const name = this.options.consumerName;
    const reply = (blockMs > 0
      ? await reader.xreadgroup('GROUP', trafficConsumerGroup, name, 'COUNT', count, 'BLOCK', blockMs, 'STREAMS', trafficStream, from)
      : await reader.xreadgroup('GROUP', trafficConsumerGroup, name, 'COUNT', count, 'STREAMS', trafficStream, from)) as
      | [string, RawEntry[]][]
      | null;
    const entries = reply?.[0]?.[1] ?? [];
    if (entries.length) {
      const average = entriesBytes(entries) / entries.length;
      this.entryBytes = this.entryBytes === 0 ? average : Math.max(average, 0.8 * this.entryBytes + 0.2 * average);
      const events = entriesEvents(entries) / entries.length;
      this.entryEvents = this.entryEvents === 0 ? events : 0.8 * this.entryEvents + 0.2 * events;
    }
    return entries;
  }

  /** Creates the group if needed; a new group (a new stream) starts its count of trimmed entries at 0. */
  private async ensureGroup(): Promise<void> {
    const created = await ensureConsumerGroup(this.options.redis, this.keys.trafficStream, this.keys.trafficConsumerGroup);
    if (created) await this.options.redis.del(this.keys.trafficTrimmed);
  }

  /**
   * Counts entries the stream's cap trimmed before the group read them (COUNT_TRIMMED_SCRIPT). Best effort:
   * a failure is logged and the next period tries again; reading goes on either way.
   */
  private async countTrimmed(): Promise<void> {
    const { trafficStream, trafficTrimmed, trafficConsumerGroup } = this.keys;
    let reply: [number, number];
    try {
      reply = (await this.options.redis.eval(COUNT_TRIMMED_SCRIPT, 2, trafficStream, trafficTrimmed, trafficConsumerGroup)) as [number, number];
    } catch (err) {
      this.options.logger.debug({ err: (err as Error).message }, 'trimmed traffic entries not counted');
      return;
    }
    const [groupTotal, added] = reply;
    if (added > 0) this.noteTrimmed(added, 'traffic entries trimmed from the stream (capture.stream.max-length / max-bytes) before the loggers read them: their events are lost', { groupTotal });
  }

  /** Counts and logs entries lost to the stream's cap, their events estimated at the recent events per entry once known. */
  private noteTrimmed(entries: number, message: string, extra: Record<string, unknown> = {}): void {
    this.stats.trimmed += entries;
    const estimate = this.entryEvents > 0 ? { eventsEstimate: Math.round(entries * this.entryEvents) } : {};
    this.options.logger.warn({ entries, ...estimate, ...extra, consumer: this.options.consumerName }, message);
  }

  /**
   * Takes over entries that sat unacked longer than claimIdleMs in another (dead) consumer's list
   * (CLAIM_STALE_SCRIPT). Stale ones the stream's cap trimmed meanwhile leave the list, counted as lost: their
   * consumer is gone or failing, and nobody has their events. Entries that are not stale are left alone even
   * when trimmed: their consumer is storing them (XAUTOCLAIM would drop those too, and they would look lost).
   */
  private async claimStale(): Promise<RawEntry[]> {
    const { trafficStream, trafficConsumerGroup } = this.keys;
    const { redis, consumerName, claimIdleMs, batchSize } = this.options;
    const [entries, deleted] = (await redis.eval(CLAIM_STALE_SCRIPT, 1, trafficStream, trafficConsumerGroup, consumerName, claimIdleMs, this.readCount(batchSize))) as [RawEntry[], number];
    if (deleted) this.noteTrimmed(deleted, 'pending traffic entries of a stopped consumer were trimmed from the stream before they were stored: their events are lost');
    const claimed = entries.filter((e) => e !== null);
    if (claimed.length) {
      this.stats.claimed += claimed.length;
      this.options.logger.info({ count: claimed.length, consumer: consumerName }, 'claimed stale traffic entries');
    }
    return claimed;
  }

  /**
   * Decodes, hands the events over, then dead-letters what could not be decoded or stored and acks the
   * entries, only after the handler committed. False when the batch must be retried.
   */
  private async process(entries: RawEntry[]): Promise<boolean> {
    const { logger } = this.options;
    const good: TrafficEntry[] = [];
    const bad: DeadLetter[] = [];
    const entryIds: string[] = [];
    const seen = new Set<string>();
    const trimmedIds: string[] = [];
    for (const [entryId, fields] of entries) {
      if (seen.has(entryId)) continue;
      seen.add(entryId);
      // One of our pending entries the stream's cap trimmed before its retry: nothing left to store.
      if (fields === null) {
        trimmedIds.push(entryId);
        continue;
      }
      entryIds.push(entryId);
      decodeTrafficEntry(fields).forEach((decoded, index) => {
        if (decoded.ok) good.push({ entryId, index, event: decoded.event, raw: decoded.raw, bodyFields: decoded.bodyFields });
        else bad.push({ entryId, index, raw: decoded.raw, bodyFields: decoded.bodyFields, reason: decoded.reason });
      });
    }
    let rejected: DeadLetter[] = [];
    if (good.length) {
      let outcome: TrafficBatchOutcome | void;
      try {
        outcome = await this.options.handle(good);
      } catch (err) {
        this.stats.failedBatches += 1;
        logger.warn({ err: (err as Error).message, count: good.length, consumer: this.options.consumerName }, 'traffic batch not stored; it stays pending and is retried');
        return false;
      }
      this.stats.batches += 1;
      rejected = (outcome?.rejected ?? []).map(({ entry: { event: _event, ...kept }, reason }) => ({ ...kept, reason }));
    }
    if (entryIds.length) await this.settle(entryIds, [...bad, ...rejected]);
    this.stats.acked += good.length - rejected.length;
    if (trimmedIds.length) {
      // Counted by what the ack removed: a consumer claiming them at the same moment counts the rest.
      const removed = await this.options.redis.xack(this.keys.trafficStream, this.keys.trafficConsumerGroup, ...trimmedIds);
      if (removed) this.noteTrimmed(removed, 'pending traffic entries trimmed from the stream before their retry: their events are lost');
    }
    return true;
  }

  /**
   * Acks the batch's entries, after copying each event that could not be stored to the dead-letter stream
   * with its reason, atomically (MULTI). Failing, nothing is acked: the entries are read again, and their
   * events stored again are stored once.
   */
  private async settle(entryIds: string[], deadLetters: DeadLetter[]): Promise<void> {
    const { trafficStream, trafficConsumerGroup, trafficDeadLetter } = this.keys;
    const { redis, consumerName, deadLetterMaxLength, logger } = this.options;
    if (deadLetters.length === 0) {
      await redis.xack(trafficStream, trafficConsumerGroup, ...entryIds);
      return;
    }
    const tx = redis.multi();
    for (const e of deadLetters) {
      tx.xadd(trafficDeadLetter, 'MAXLEN', '~', deadLetterMaxLength, '*', TRAFFIC_EVENT_FIELD, e.raw, ...e.bodyFields, 'reason', e.reason, 'entryId', e.entryId, 'index', e.index, 'consumer', consumerName);
    }
    tx.xack(trafficStream, trafficConsumerGroup, ...entryIds);
    const results = await tx.exec();
    const failed = results?.find(([err]) => err);
    if (!results || failed) throw new Error(`dead-lettering failed: ${failed?.[0]?.message ?? 'transaction aborted'}`);
    this.stats.deadLettered += deadLetters.length;
    for (const e of deadLetters) logger.warn({ entryId: e.entryId, index: e.index, reason: e.reason }, 'traffic event dead-lettered');
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

/** Entries of the first read while their size is not known yet (with a byte bound). */
const FIRST_READ_COUNT = 16;

/**
 * Entries to read so that `bytesLeft` is not exceeded at `entryBytes` per entry (0: not known yet, a few);
 * at least one, at most `count`; `count` when there is no byte bound.
 */
export function entriesThatFit(count: number, bytesLeft: number, entryBytes: number): number {
  if (!Number.isFinite(bytesLeft)) return count;
  if (!(entryBytes > 0)) return Math.min(count, FIRST_READ_COUNT);
  return Math.max(1, Math.min(count, Math.floor(bytesLeft / entryBytes)));
}

/** Events in stream entries (their `event` fields; an entry without one still counts as one, to dead-letter). */
function entriesEvents(entries: RawEntry[]): number {
  let n = 0;
  for (const [, fields] of entries) {
    let events = 0;
    if (fields) for (let i = 0; i < fields.length; i += 2) if (fields[i] === TRAFFIC_EVENT_FIELD) events++;
    n += Math.max(events, 1);
  }
  return n;
}

/** Bytes of the field values of stream entries (the event JSON dominates), as UTF-16 code units. */
function entriesBytes(entries: RawEntry[]): number {
  let n = 0;
  for (const [, fields] of entries) if (fields) for (const f of fields) n += f.length;
  return n;
}

/**
 * XGROUP CREATE … 0 MKSTREAM, tolerating an existing group; true when it created the group. Reading from 0
 * keeps events published before the first logger started.
 */
export async function ensureConsumerGroup(redis: Redis, stream: string, group: string): Promise<boolean> {
  try {
    await redis.xgroup('CREATE', stream, group, '0', 'MKSTREAM');
    return true;
  } catch (err) {
    if (!String((err as Error).message).includes('BUSYGROUP')) throw err;
    return false;
  }
}

/**
 * Entries the stream's cap (XADD MAXLEN) trimmed before the group read them, counted once for the group.
 * KEYS: the stream, the group's running count; ARGV: the group. Returns { the count, what this call added }.
 * Only a group behind the stream's first entry (its last delivered id before it) can have lost entries
 * unread; then they are the entries added before the first one left (`entries-added` - `length`) minus the
 * entries the group read (`entries-read`). The script counts them and sets `entries-read` to that position
 * (XGROUP SETID to the same last id): each lost entry is counted once, by whichever consumer checks first, on
 * every Redis 7+ whatever it does with `entries-read` and `lag` after a trim (7.4 and 8 changed both). The
 * consumers check before each read of new entries and every claim period; the cheap first step (`lag` below
 * `length` means not behind, in every version) spares XINFO STREAM in the normal case. A group that never
 * read has no `entries-read`: its count starts at that check. Entries trimmed before the group existed are
 * not its loss.
 */
const COUNT_TRIMMED_SCRIPT = `
local function field(list, name)
  for i = 1, #list, 2 do if list[i] == name then return list[i + 1] end end
end
local function before(a, b)
  local ams, aseq = string.match(a, '^(%d+)-(%d+)$')
  local bms, bseq = string.match(b, '^(%d+)-(%d+)$')
  ams, bms = tonumber(ams), tonumber(bms)
  return ams < bms or (ams == bms and tonumber(aseq) < tonumber(bseq))
end
local total = tonumber(redis.call('GET', KEYS[2]) or '0')
local group
for _, g in ipairs(redis.call('XINFO', 'GROUPS', KEYS[1])) do
  if field(g, 'name') == ARGV[1] then group = g end
end
if not group then return {total, 0} end
local length = redis.call('XLEN', KEYS[1])
local lag = field(group, 'lag')
if length == 0 or (lag and lag < length) then return {total, 0} end
local stream = redis.call('XINFO', 'STREAM', KEYS[1])
local first = field(stream, 'first-entry')
local last = field(group, 'last-delivered-id')
if not first or not before(last, first[1]) then return {total, 0} end
local position = field(stream, 'entries-added') - length
local read = field(group, 'entries-read')
redis.call('XGROUP', 'SETID', KEYS[1], ARGV[1], last, 'ENTRIESREAD', position)
if not read or position <= read then return {total, 0} end
total = redis.call('INCRBY', KEYS[2], position - read)
return {total, position - read}
`;

/**
 * Claims the group's entries pending longer than ARGV[3] ms (their consumer died or is stuck) for consumer
 * ARGV[2], at most ARGV[4]; KEYS: the stream; ARGV[1]: the group. Returns { the claimed entries, how many of
 * the stale ones were gone from the stream }. XCLAIM drops a pending entry the stream no longer has from the
 * list and leaves it out of its answer; one script, so an entry re-read by its consumer between the listing
 * and the claim (no longer idle, so not claimed) is not taken for a trimmed one.
 */
const CLAIM_STALE_SCRIPT = `
local ids = {}
for _, p in ipairs(redis.call('XPENDING', KEYS[1], ARGV[1], 'IDLE', ARGV[3], '-', '+', ARGV[4])) do ids[#ids + 1] = p[1] end
if #ids == 0 then return {{}, 0} end
local claimed = redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], ARGV[3], unpack(ids))
return {claimed, #ids - #claimed}
`;
