import type { ExchangeRow } from '../api/traffic-schemas';
import { appendOlderRows, mergeNewRows, openLiveFeed, parseFeedEvent, type FeedState } from './live-feed';

const make = (id: string): ExchangeRow => ({
  id, timestamp: '2026-11-22T10:00:00Z', source: 'proxy', engineId: null, method: 'GET', url: `http://h/${id}`,
  host: 'h', path: `/${id}`, status: 200, durationMs: 1, requestSize: 0, responseSize: 0, error: null,
});

describe('live feed rows', () => {
  it('puts arrivals on top, newest first, and skips ids already shown', () => {
    const seen = new Set(['a']);
    const rows = mergeNewRows([make('a')], [make('b'), make('a'), make('c')], seen);
    expect(rows.map((r) => r.id)).toEqual(['c', 'b', 'a']);
  });

  it('caps the list and forgets the dropped ids so history can page them in again', () => {
    const seen = new Set<string>();
    const rows = mergeNewRows([], ['1', '2', '3', '4'].map(make), seen, 3);
    expect(rows.map((r) => r.id)).toEqual(['4', '3', '2']);
    expect(seen.has('1')).toBe(false);
    expect(appendOlderRows(rows, [make('2'), make('1')], seen).map((r) => r.id)).toEqual(['4', '3', '2', '1']);
  });

  it('parses the logger summary event and skips malformed ones', () => {
    const row = parseFeedEvent(JSON.stringify({
      id: 'x', seq: 7, startedAt: '2026-11-22T10:00:00.000Z', durationMs: 5, source: 'forward', engineId: null, method: 'get',
      url: 'http://api.test:81/a?b=1', host: 'api.test', path: '/a', status: 201, error: null,
      requestBodySize: 3, responseBodySize: 9, matchedStubId: null,
    }));
    expect(row).toMatchObject({ id: 'x', method: 'GET', host: 'api.test', path: '/a', status: 201, requestSize: 3, responseSize: 9, source: 'forward' });
    expect(parseFeedEvent(JSON.stringify({ id: 'e', startedAt: '2026-11-22T10:00:00.000Z', source: 'engine', engineId: 'local', method: 'GET', url: 'http://127.0.0.1:9090/x', status: 404, requestBodySize: 0, responseBodySize: 14 }))).toMatchObject({ engineId: 'local', responseSize: 14 });
    expect(parseFeedEvent('not json')).toBeUndefined();
    expect(parseFeedEvent('{"id":"x"}')).toBeUndefined();
  });
});

/** Enough of EventSource for the feed: the test opens, fails and feeds it (2 = CLOSED, the browser gave up). */
class FakeEventSource {
  readyState = 0;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onmessage: ((event: MessageEvent<string>) => void) | null = null;
  private readonly listeners = new Map<string, (event: MessageEvent<string>) => void>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, listener);
  }
  close() {
    this.readyState = 2;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  deliver(id: string, data: unknown) {
    this.listeners.get('exchange')?.({ lastEventId: id, data: JSON.stringify(data) } as MessageEvent<string>);
  }
  giveUp() {
    this.readyState = 2;
    this.onerror?.();
  }
}

const summary = { id: 'e7', seq: 7, startedAt: '2026-11-22T10:00:00.000Z', durationMs: 5, source: 'proxy', method: 'GET', url: 'http://h/a', host: 'h', path: '/a', status: 200, error: null, requestBodySize: 0, responseBodySize: 0, matchedStubId: null };

describe('live feed connection', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function open(shouldReconnect?: () => Promise<boolean>) {
    const sources: FakeEventSource[] = [];
    const states: FeedState[] = [];
    const batches: ExchangeRow[][] = [];
    const close = openLiveFeed({
      url: '/bff/traffic/stream?method=GET',
      onBatch: (rows) => batches.push(rows),
      onState: (state) => states.push(state),
      reconnectMs: 3000,
      shouldReconnect,
      createEventSource: (url) => {
        const source = new FakeEventSource(url);
        sources.push(source);
        return source as unknown as EventSource;
      },
    });
    return { sources, states, batches, close };
  }

  it('reconnects after the browser gave up, resuming after the last event it saw', async () => {
    const feed = open(async () => true);
    feed.sources[0].open();
    feed.sources[0].deliver('7', summary);
    feed.sources[0].giveUp();
    await jest.advanceTimersByTimeAsync(3000);
    expect(feed.sources.map((s) => s.url)).toEqual(['/bff/traffic/stream?method=GET', '/bff/traffic/stream?method=GET&lastEventId=7']);
    expect(feed.batches.flat().map((row) => row.id)).toEqual(['e7']);
    feed.close();
  });

  it('stays refused, without retrying, when the API turns the feed down (a 401 the probe saw)', async () => {
    const probe = jest.fn(async () => false);
    const feed = open(probe);
    feed.sources[0].giveUp();
    await jest.advanceTimersByTimeAsync(30_000);
    expect(probe).toHaveBeenCalledTimes(1);
    expect(feed.sources).toHaveLength(1);
    expect(feed.states.at(-1)).toBe('refused');
    feed.close();
    expect(feed.states.at(-1)).toBe('closed');
  });

  it('reconnects when the probe itself fails (the API down is not a refusal)', async () => {
    const feed = open(async () => {
      throw new Error('unreachable');
    });
    feed.sources[0].giveUp();
    await jest.advanceTimersByTimeAsync(3000);
    expect(feed.sources).toHaveLength(2);
    feed.close();
  });

  it('leaves a connection the browser still retries to the browser (no probe, no second EventSource)', async () => {
    const probe = jest.fn(async () => true);
    const feed = open(probe);
    feed.sources[0].onerror?.();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(probe).not.toHaveBeenCalled();
    expect(feed.sources).toHaveLength(1);
    expect(feed.states.at(-1)).toBe('reconnecting');
    feed.close();
  });

  it('does nothing once closed while the probe was out', async () => {
    let answer: (value: boolean) => void = () => {};
    const feed = open(() => new Promise<boolean>((resolve) => (answer = resolve)));
    feed.sources[0].giveUp();
    feed.close();
    answer(true);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(feed.sources).toHaveLength(1);
    expect(feed.states.at(-1)).toBe('closed');
  });
});
