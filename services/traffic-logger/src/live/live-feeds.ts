import type { ServerResponse } from 'node:http';
import { waitForDrain, type Logger } from '@mockyard/service-kit';
import { matchesExchangeFilter, type ExchangeFilter } from '../domain/exchange-filter';
import { toExchangeSummary } from '../domain/exchange-views';
import type { StoredExchange } from '../domain/stored-exchange';
import type { ExchangeTail } from './exchange-tail';

export interface ReplaySource {
  listAfterSeq(afterSeq: number, limit: number, filter: ExchangeFilter): Promise<StoredExchange[]>;
  /** The highest seq the database has ever handed out (rows since deleted included); 0 when none. */
  lastIssuedSeq(): Promise<number>;
}

export interface LiveFeedsOptions {
  tail: ExchangeTail;
  replay: ReplaySource;
  logger: Logger;
  heartbeatMs: number;
  replayLimit: number;
  /** A client that lets this much output pile up is disconnected (it resumes with Last-Event-ID). */
  maxBufferedBytes?: number;
}

export interface OpenFeed {
  res: ServerResponse;
  filter: ExchangeFilter;
  /** Resume after this seq (Last-Event-ID); absent: live from now. */
  lastEventId?: number;
  onClose(listener: () => void): void;
}

const REPLAY_PAGE = 500;

/**
 * The live feed (Server-Sent Events). Each event is one stored exchange matching the client's filter,
 * `id:` = its seq. Resuming with Last-Event-ID replays stored rows after that seq from the database
 * (up to replayLimit), then continues live without gaps or duplicates: live rows arriving during the
 * replay are buffered and de-duplicated by seq.
 */
export class LiveFeeds {
  private readonly open = new Set<() => void>();

  constructor(private readonly options: LiveFeedsOptions) {}

  get size(): number {
    return this.open.size;
  }

  async serve(feed: OpenFeed): Promise<void> {
    const { res, filter } = feed;
    const { tail, logger, heartbeatMs, replayLimit } = this.options;
    const maxBuffered = this.options.maxBufferedBytes ?? 1024 * 1024;
    let closed = false;
    let cursor = 0;
    let buffer: StoredExchange[] | null = [];
    let heartbeat: NodeJS.Timeout | undefined = undefined;
    let unsubscribe = () => {};
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
      this.open.delete(close);
      res.end();
    };

    const write = (chunk: string): boolean => {
      if (closed) return false;
      const ok = res.write(chunk);
      if (!ok && res.writableLength > maxBuffered) {
        logger.info({ bufferedBytes: res.writableLength }, 'live feed client too slow; disconnecting it (it resumes with Last-Event-ID)');
        close();
      }
      return ok;
    };
    const emit = (rows: StoredExchange[]) => {
      let out = '';
      for (const row of rows) {
        if (row.seq <= cursor) continue;
        cursor = row.seq;
        if (matchesExchangeFilter(row, filter)) out += `id: ${row.seq}\nevent: exchange\ndata: ${JSON.stringify(toExchangeSummary(row))}\n\n`;
      }
      if (out) write(out);
    };
    const listener = (rows: StoredExchange[]) => (buffer ? buffer.push(...rows) : emit(rows));

    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write('retry: 2000\n\n');

    this.open.add(close);
    feed.onClose(close);
    if (res.destroyed) close(); // the client left before we got here: its close event is gone
    const sub = await tail.subscribe(listener);
    unsubscribe = sub.unsubscribe;
    if (closed) {
      unsubscribe();
      return;
    }
    heartbeat = setInterval(() => write(': keep-alive\n\n'), heartbeatMs);
    heartbeat.unref();

    try {
      const resumeAfter = await this.resumePoint(feed.lastEventId, sub.fromSeq);
      cursor = resumeAfter ?? sub.fromSeq;
      let replayed = 0;
      while (!closed && resumeAfter !== undefined && cursor < sub.fromSeq) {
        const rows = await this.options.replay.listAfterSeq(cursor, REPLAY_PAGE, filter);
        const upToLive = rows.filter((r) => r.seq <= sub.fromSeq);
        if (upToLive.length === 0) break;
        if (replayed + upToLive.length > replayLimit) {
          const skippedAfterSeq = cursor;
          cursor = sub.fromSeq;
          write(`event: overflow\ndata: ${JSON.stringify({ skippedAfterSeq, resumedAtSeq: sub.fromSeq, replayLimit })}\n\n`);
          break;
        }
        const before = cursor;
        emit(upToLive);
        // Rows not matching the filter were skipped in SQL: advance past the page either way.
        cursor = Math.max(cursor, upToLive[upToLive.length - 1].seq, before);
        replayed += upToLive.length;
        if (upToLive.length < REPLAY_PAGE) break;
        if (res.writableNeedDrain) await waitForDrain(res);
      }
      if (resumeAfter !== undefined && cursor < sub.fromSeq) cursor = sub.fromSeq;
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'live feed replay failed; closing the stream');
      close();
      return;
    }
    const pending = buffer;
    buffer = null;
    emit(pending);
    write(`event: ready\ndata: ${JSON.stringify({ liveFromSeq: cursor })}\n\n`);
  }

  /**
   * Where a resuming client's feed starts. An id above the newest row is normal (the rows after it were
   * deleted, or another instance's tail is a poll ahead of this one's) and is kept: later rows have higher
   * seqs. An id above every seq the database ever handed out is from a log that is gone (a new database, an
   * in-memory one after a restart): keeping it would hide every row until the new seqs pass it, so the
   * client gets this log from its start instead (within the replay limit).
   */
  private async resumePoint(lastEventId: number | undefined, fromSeq: number): Promise<number | undefined> {
    if (lastEventId === undefined || lastEventId <= fromSeq) return lastEventId;
    return lastEventId > (await this.options.replay.lastIssuedSeq()) ? 0 : lastEventId;
  }

  /** Ends every open feed (shutdown). */
  closeAll(): void {
    for (const close of [...this.open]) close();
  }
}
