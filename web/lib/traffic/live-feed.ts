import { ExchangeSummaryWireSchema, toExchangeRow, type ExchangeRow } from '../api/traffic-schemas';

/** `refused`: the API turned the feed down (no or a wrong key, as shouldReconnect found); it is not retried. */
export type FeedState = 'connecting' | 'live' | 'reconnecting' | 'refused' | 'closed';

export type LiveFeedOptions = {
  url: string;
  /** Called at most once per `flushMs` with every row that arrived since the last call, oldest first. */
  onBatch: (rows: ExchangeRow[]) => void;
  onState: (state: FeedState) => void;
  flushMs?: number;
  /** Wait before opening a new connection after the browser gave up on one. */
  reconnectMs?: number;
  createEventSource?: (url: string) => EventSource;
  /**
   * Asked each time the browser gave up on a connection, since EventSource cannot see why (a 401 and a server
   * that is down look the same): false = the API refuses it, so the feed stays `refused` instead of retrying
   * every reconnectMs in silence, and whoever opened it opens it again once that changes (a key was entered).
   * Without it, or when it fails, the feed reconnects.
   */
  shouldReconnect?: () => Promise<boolean>;
};

/**
 * The read API's Server-Sent Events feed, batched: hundreds of events a second become a few renders a second.
 * EventSource reconnects by itself and sends Last-Event-ID, so the server resumes where the feed broke off.
 */
export function openLiveFeed(options: LiveFeedOptions): () => void {
  const flushMs = options.flushMs ?? 150;
  const reconnectMs = options.reconnectMs ?? 3000;
  const create = options.createEventSource ?? ((url: string) => new EventSource(url));
  let buffer: ExchangeRow[] = [];
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let lastEventId: string | undefined;
  let source: EventSource | undefined;
  let isClosed = false;

  const flush = () => {
    flushTimer = undefined;
    if (buffer.length === 0) return;
    const rows = buffer;
    buffer = [];
    options.onBatch(rows);
  };
  const receive = (event: MessageEvent<string>) => {
    if (event.lastEventId) lastEventId = event.lastEventId;
    const row = parseFeedEvent(event.data);
    if (!row) return;
    buffer.push(row);
    flushTimer ??= setTimeout(flush, flushMs);
  };
  const connect = () => {
    reconnectTimer = undefined;
    options.onState('connecting');
    // A new EventSource does not carry Last-Event-ID over, so the resume point goes in the query.
    const current = create(lastEventId ? withQuery(options.url, 'lastEventId', lastEventId) : options.url);
    source = current;
    current.onopen = () => options.onState('live');
    current.onerror = () => {
      if (isClosed) return;
      options.onState('reconnecting');
      // Still CONNECTING: the browser retries by itself, resuming with Last-Event-ID.
      if (current.readyState !== 2) return;
      // The browser gave up (the server answered an error or is gone): try again ourselves, unless refused.
      void reconnectUnlessRefused(current);
    };
    current.onmessage = receive;
    current.addEventListener('exchange', receive as EventListener);
  };
  const reconnectUnlessRefused = async (failed: EventSource) => {
    const mayRetry = options.shouldReconnect ? await options.shouldReconnect().catch(() => true) : true;
    if (isClosed || source !== failed) return;
    if (!mayRetry) {
      options.onState('refused');
      return;
    }
    reconnectTimer ??= setTimeout(connect, reconnectMs);
  };
  connect();

  return () => {
    isClosed = true;
    source?.close();
    if (flushTimer) clearTimeout(flushTimer);
    if (reconnectTimer) clearTimeout(reconnectTimer);
    flush();
    options.onState('closed');
  };
}

function withQuery(url: string, key: string, value: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}${key}=${encodeURIComponent(value)}`;
}

/** One feed event's data → a row; malformed events are skipped (the feed keeps going). */
export function parseFeedEvent(data: string): ExchangeRow | undefined {
  try {
    const parsed = ExchangeSummaryWireSchema.safeParse(JSON.parse(data));
    return parsed.success ? toExchangeRow(parsed.data) : undefined;
  } catch {
    return undefined;
  }
}

/** The maximum number of rows kept in the page; older ones are paged in from history on demand. */
export const MAX_ROWS_IN_VIEW = 20_000;

/**
 * Puts newly arrived rows (oldest first) on top of the list (newest first), skipping ids already shown,
 * and caps the list length.
 */
export function mergeNewRows(current: ExchangeRow[], arrived: ExchangeRow[], seen: Set<string>, maxRows = MAX_ROWS_IN_VIEW): ExchangeRow[] {
  const fresh: ExchangeRow[] = [];
  for (let i = arrived.length - 1; i >= 0; i -= 1) {
    const row = arrived[i];
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    fresh.push(row);
  }
  if (fresh.length === 0) return current;
  const merged = fresh.concat(current);
  if (merged.length > maxRows) {
    for (const dropped of merged.slice(maxRows)) seen.delete(dropped.id);
    return merged.slice(0, maxRows);
  }
  return merged;
}

/** Appends an older history page below the list, skipping ids already shown. */
export function appendOlderRows(current: ExchangeRow[], older: ExchangeRow[], seen: Set<string>): ExchangeRow[] {
  const fresh = older.filter((row) => !seen.has(row.id));
  for (const row of fresh) seen.add(row.id);
  return fresh.length ? current.concat(fresh) : current;
}
