import { ExchangeSummaryWireSchema, toExchangeRow, type ExchangeRow } from '../api/traffic-schemas';

export type FeedState = 'connecting' | 'live' | 'reconnecting' | 'closed';

export type LiveFeedOptions = {
  url: string;
  /** Called at most once per `flushMs` with every row that arrived since the last call, oldest first. */
  onBatch: (rows: ExchangeRow[]) => void;
  onState: (state: FeedState) => void;
  flushMs?: number;
  /** Wait before opening a new connection after the browser gave up on one. */
  reconnectMs?: number;
  createEventSource?: (url: string) => EventSource;
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
      if (current.readyState !== 2) {
        options.onState('reconnecting');
        return;
      }
      // The browser gave up (the server answered an error or is gone): try again ourselves.
      options.onState('reconnecting');
      reconnectTimer ??= setTimeout(connect, reconnectMs);
    };
    current.onmessage = receive;
    current.addEventListener('exchange', receive as EventListener);
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
