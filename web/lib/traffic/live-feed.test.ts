import type { ExchangeRow } from '../api/traffic-schemas';
import { appendOlderRows, mergeNewRows, parseFeedEvent } from './live-feed';

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
      id: 'x', seq: 7, startedAt: '2026-11-22T10:00:00.000Z', durationMs: 5, source: 'forward', method: 'get',
      url: 'http://api.test:81/a?b=1', host: 'api.test', path: '/a', status: 201, error: null,
      requestBodySize: 3, responseBodySize: 9, matchedStubId: null,
    }));
    expect(row).toMatchObject({ id: 'x', method: 'GET', host: 'api.test', path: '/a', status: 201, requestSize: 3, responseSize: 9, source: 'forward' });
    expect(parseFeedEvent('not json')).toBeUndefined();
    expect(parseFeedEvent('{"id":"x"}')).toBeUndefined();
  });
});
