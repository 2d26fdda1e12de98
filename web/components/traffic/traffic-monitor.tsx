'use client';
import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '@/lib/api/api-error';
import { HISTORY_PAGE_SIZE, trafficClient } from '@/lib/api/traffic-client';
import type { ExchangeRow } from '@/lib/api/traffic-schemas';
import { appendOlderRows, MAX_ROWS_IN_VIEW, mergeNewRows, openLiveFeed, type FeedState } from '@/lib/traffic/live-feed';
import { classifyStatus, formatBytes, formatDuration, formatTime } from '@/lib/traffic/status-class';
import { hasFilters, matchesFilters, readFilters, writeFilters, type TrafficFilters } from '@/lib/traffic/traffic-filters';
import { announceUnauthorized, onAuthorized } from '@/lib/ui/auth-events';
import { replaceSearch } from '@/lib/ui/replace-search';
import { ErrorNote } from '../error-note';
import { VirtualList } from '../virtual-list';
import { ExchangeDetail } from './exchange-detail';
import { FilterBar } from './filter-bar';

const ROW_HEIGHT = 26;
/** How long after a failed first history load the monitor tries again by itself (as the live feed reconnects). */
const HISTORY_RETRY_MS = 3_000;

/** A 401 from the traffic API opens the key prompt (as the hub's do, in use-resource); says whether it was one. */
function announceIfUnauthorized(error: unknown): boolean {
  if (!(error instanceof ApiError && error.isUnauthorized)) return false;
  announceUnauthorized();
  return true;
}

/** The live traffic monitor: history from the read API, then the live feed on top, newest first. */
export function TrafficMonitor() {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const filters = useMemo(() => readFilters(new URLSearchParams(searchParams.toString())), [searchParams]);
  const filterKey = writeFilters(filters).toString();
  const selectedId = searchParams.get('id') ?? undefined;
  const shownKeyRef = useRef(filterKey);
  shownKeyRef.current = filterKey;

  const [rows, setRows] = useState<ExchangeRow[]>([]);
  const seenRef = useRef(new Set<string>());
  const [feedState, setFeedState] = useState<FeedState>('connecting');
  const [isPaused, setIsPaused] = useState(false);
  const pausedRef = useRef(false);
  const pendingRef = useRef<ExchangeRow[]>([]);
  const [pendingCount, setPendingCount] = useState(0);
  // Bumped when a key is saved after the traffic API refused this view: history and feed start over with it.
  const [keyEpoch, setKeyEpoch] = useState(0);
  const wasRefusedRef = useRef(false);
  useEffect(() => onAuthorized(() => {
    if (wasRefusedRef.current) setKeyEpoch((epoch) => epoch + 1);
  }), []);
  const [history, setHistory] = useState<{ nextPage: number; totalElements: number; isExact: boolean; isLast: boolean; isLoading: boolean; error?: Error }>({ nextPage: 0, totalElements: 0, isExact: true, isLast: false, isLoading: true });

  const setUrl = useCallback((nextFilters: TrafficFilters, id: string | undefined) => {
    const query = writeFilters(nextFilters);
    if (id) query.set('id', id);
    replaceSearch(pathname, query);
  }, [pathname]);

  /**
   * Loads one page of history below what is shown; resolves to the error when it failed (also shown). Below is
   * right for the first page too: the feed delivers only rows stored after it subscribed, so a history row it
   * did not deliver is older than every row it did.
   */
  const loadHistoryPage = useCallback(async (page: number): Promise<Error | undefined> => {
    setHistory((h) => ({ ...h, isLoading: true, error: undefined }));
    try {
      const result = await trafficClient.fetchHistory(filters, page);
      // The filters changed while it loaded: these rows belong to a list no longer shown.
      if (shownKeyRef.current !== filterKey) return undefined;
      const older = result.rows.filter((row) => matchesFilters(row, filters));
      setRows((current) => appendOlderRows(current, older, seenRef.current));
      setHistory({ nextPage: page + 1, totalElements: result.totalElements, isExact: result.totalElementsExact, isLast: result.last || result.rows.length < HISTORY_PAGE_SIZE, isLoading: false });
      return undefined;
    } catch (caught) {
      if (shownKeyRef.current !== filterKey) return undefined;
      if (announceIfUnauthorized(caught)) wasRefusedRef.current = true;
      const error = caught instanceof Error ? caught : new Error(String(caught));
      setHistory((h) => ({ ...h, isLoading: false, error }));
      return error;
    }
  }, [filterKey]); // eslint-disable-line react-hooks/exhaustive-deps -- deliberate: runs on the key only

  // New filters (or a key entered after a refusal): start over with history page 0 and a live feed carrying the same filters.
  useEffect(() => {
    wasRefusedRef.current = false;
    seenRef.current = new Set();
    pendingRef.current = [];
    setPendingCount(0);
    setRows([]);
    let isCurrent = true;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    const loadFirstPage = async () => {
      const error = await loadHistoryPage(0);
      // The read API down or unreachable (restarting, its database away): try again by itself, as the live feed
      // reconnects, instead of waiting for a click on Retry. A refusal (4xx) stays until the filters change.
      if (isCurrent && error instanceof ApiError && error.isUnreachable) retryTimer = setTimeout(() => void loadFirstPage(), HISTORY_RETRY_MS);
    };
    void loadFirstPage();
    const close = openLiveFeed({
      url: trafficClient.streamUrl(filters),
      onState: setFeedState,
      // EventSource cannot see a 401: when the browser gives up, a probe finds out (and opens the key prompt).
      shouldReconnect: () => trafficClient.probe().then(() => true, (error: unknown) => {
        if (!announceIfUnauthorized(error)) return true;
        wasRefusedRef.current = true;
        return false;
      }),
      onBatch: (arrived) => {
        const wanted = arrived.filter((row) => matchesFilters(row, filters));
        if (wanted.length === 0) return;
        if (pausedRef.current) {
          pendingRef.current.push(...wanted);
          // bounded like the list itself: a long pause keeps the newest rows
          if (pendingRef.current.length > MAX_ROWS_IN_VIEW) pendingRef.current.splice(0, pendingRef.current.length - MAX_ROWS_IN_VIEW);
          setPendingCount(pendingRef.current.length);
          return;
        }
        setRows((current) => mergeNewRows(current, wanted, seenRef.current));
      },
    });
    return () => {
      isCurrent = false;
      clearTimeout(retryTimer);
      close();
    };
  }, [filterKey, keyEpoch]); // eslint-disable-line react-hooks/exhaustive-deps -- deliberate: runs on the filter key and a saved key only

  const togglePause = () => {
    const nextPaused = !pausedRef.current;
    pausedRef.current = nextPaused;
    setIsPaused(nextPaused);
    if (!nextPaused && pendingRef.current.length) {
      const pending = pendingRef.current;
      pendingRef.current = [];
      setPendingCount(0);
      setRows((current) => mergeNewRows(current, pending, seenRef.current));
    }
  };

  const clearView = () => {
    setRows([]);
    pendingRef.current = [];
    setPendingCount(0);
    setHistory((h) => ({ ...h, isLast: true }));
  };

  const [deleteError, setDeleteError] = useState<Error>();
  const deleteAll = async () => {
    if (!window.confirm('Delete ALL logged traffic on the server? This cannot be undone.')) return;
    try {
      await trafficClient.clearAll();
      // Nothing older is left on the server: no history count, no page to continue from, no held rows.
      seenRef.current = new Set();
      setRows([]);
      pendingRef.current = [];
      setPendingCount(0);
      setHistory({ nextPage: 0, totalElements: 0, isExact: true, isLast: true, isLoading: false });
      setDeleteError(undefined);
    } catch (error) {
      announceIfUnauthorized(error);
      setDeleteError(error instanceof Error ? error : new Error(String(error)));
    }
  };

  const selectedIndex = selectedId ? rows.findIndex((row) => row.id === selectedId) : -1;
  const select = (index: number) => setUrl(filters, rows[index]?.id);

  return (
    <div className="monitor">
      <div className="toolbar">
        <FilterBar filters={filters} onChange={(next) => setUrl(next, selectedId)} />
        <span className="spacer" />
        <div className="row">
          <FeedIndicator state={feedState} isPaused={isPaused} />
          <button type="button" onClick={togglePause} aria-pressed={isPaused}>
            {isPaused ? `▶ Resume${pendingCount ? ` (${pendingCount} new)` : ''}` : '❚❚ Pause'}
          </button>
          <button type="button" onClick={clearView} title="Clear the list (the server keeps the traffic)">Clear</button>
          <a className="button" href={trafficClient.harUrl(filters)} download="mockyard-traffic.har">Export HAR</a>
          <button type="button" className="danger" onClick={deleteAll} title="Delete all logged traffic on the server">Delete all…</button>
        </div>
      </div>
      <div
        className={`monitor-body${selectedId ? ' with-detail' : ''}`}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && selectedId) setUrl(filters, undefined);
        }}
      >
        <div className="list-pane">
          <div className="list-header" aria-hidden="true">
            <span>Time</span><span>Method</span><span>Host / path</span><span className="col-num">Status</span>
            <span className="col-num">Duration</span><span className="col-num col-size">Size ↑ / ↓</span><span className="col-source">Source</span>
          </div>
          <ErrorNote error={deleteError} what="delete the traffic" />
          {history.error && rows.length === 0 ? (
            <div style={{ padding: '0 10px' }}>
              <ErrorNote error={history.error} what="load traffic history" onRetry={() => void loadHistoryPage(0)} />
            </div>
          ) : null}
          {rows.length === 0 && !history.isLoading && !history.error ? (
            <div className="empty">
              {hasFilters(filters) ? 'No exchanges match these filters yet.' : 'No traffic yet.'} Send a request through{' '}
              <code>/proxy?url=…</code> and it appears here live.
            </div>
          ) : null}
          <VirtualList
            items={rows}
            rowHeight={ROW_HEIGHT}
            label="Exchanges, newest first"
            selectedIndex={selectedIndex}
            onSelectIndex={select}
            getKey={(row) => row.id}
            renderRow={(row, index) => <ExchangeRowView key={row.id} row={row} isSelected={index === selectedIndex} onSelect={() => select(index)} />}
          />
          <div className="list-footer" role="status" aria-live="polite">
            <span>{rows.length} shown{history.totalElements ? ` · ${history.isExact ? '' : '~'}${history.totalElements} in history` : ''}</span>
            <span className="spacer" />
            {history.isLoading ? <span className="muted">loading…</span> : null}
            {history.error && rows.length > 0 ? <span className="status-server-error">{history.error instanceof ApiError ? history.error.message : 'history failed'}</span> : null}
            {!history.isLast && !(history.error && rows.length === 0) ? (
              <button type="button" className="small" disabled={history.isLoading} onClick={() => void loadHistoryPage(history.nextPage)}>Load older</button>
            ) : null}
          </div>
        </div>
        {selectedId ? <ExchangeDetail key={selectedId} id={selectedId} onClose={() => setUrl(filters, undefined)} /> : null}
      </div>
    </div>
  );
}

function ExchangeRowView({ row, isSelected, onSelect }: { row: ExchangeRow; isSelected: boolean; onSelect: () => void }) {
  const statusClass = classifyStatus(row.status, row.error);
  return (
    <div id={`row-${row.id}`} className="list-row" role="option" aria-selected={isSelected} onClick={onSelect} data-exchange-id={row.id}>
      <span className="mono">{formatTime(row.timestamp)}</span>
      <span className="method">{row.method}</span>
      <span className="col-url" title={row.url}><span className="host">{row.host}</span>{row.path}</span>
      <span className={`col-num status status-${statusClass}`}>{row.status ?? (row.error ? 'ERR' : '…')}</span>
      <span className="col-num">{formatDuration(row.durationMs)}</span>
      <span className="col-num col-size">{formatBytes(row.requestSize)} / {formatBytes(row.responseSize)}</span>
      <span className="col-source"><span className="badge">{row.source}{row.engineId ? `:${row.engineId}` : ''}</span></span>
    </div>
  );
}

function FeedIndicator({ state, isPaused }: { state: FeedState; isPaused: boolean }) {
  if (isPaused) return <span className="badge unknown">paused</span>;
  if (state === 'live') return <span className="badge up"><span className="dot live" /> live</span>;
  if (state === 'connecting') return <span className="badge">connecting…</span>;
  if (state === 'refused') return <span className="badge down" title="The traffic API refused the live feed: it opens again once an API key is entered">feed needs an API key</span>;
  return <span className="badge down" title="The live feed is down; it reconnects by itself">{state === 'reconnecting' ? 'feed reconnecting' : 'feed closed'}</span>;
}
