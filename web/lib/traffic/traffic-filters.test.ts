import type { ExchangeRow } from '../api/traffic-schemas';
import { matchesFilters, readFilters, toApiQuery, writeFilters } from './traffic-filters';

const row: ExchangeRow = {
  id: 'a', timestamp: '2026-11-22T10:00:00.000Z', source: 'proxy', engineId: null, method: 'POST',
  url: 'http://api.example.com:8443/orders?id=7', host: 'api.example.com', path: '/orders?id=7',
  status: 503, durationMs: 12, requestSize: 10, responseSize: 20, error: null,
};

describe('traffic filters', () => {
  it('round-trips through the page URL with a stable key order', () => {
    const query = new URLSearchParams('url=%2Forders&status=5XX&method=post&host=api.example.com&from=2026-11-22T09:00:00.000Z');
    const filters = readFilters(query);
    expect(filters).toEqual({ method: 'POST', status: '5xx', host: 'api.example.com', url: '/orders', from: '2026-11-22T09:00:00.000Z' });
    expect(writeFilters(filters).toString()).toBe('method=POST&status=5xx&host=api.example.com&url=%2Forders&from=2026-11-22T09%3A00%3A00.000Z');
    expect(readFilters(writeFilters(filters))).toEqual(filters);
  });

  it.each([
    ['status=abc', {}],
    ['status=6xx', {}],
    ['status=404', { status: '404' }],
    ['from=yesterday', {}],
    ['method=&url=%20', {}],
    ['minDurationMs=250', { minDurationMs: '250' }],
    ['minDurationMs=-1', {}],
  ])('reads %s as %j (meaningless values are dropped)', (query, expected) => {
    expect(readFilters(new URLSearchParams(query))).toEqual(expected);
  });

  it('sends an exact status as status and a class as statusClass to the read API', () => {
    expect(toApiQuery({ status: '404', method: 'GET' }).toString()).toBe('method=GET&status=404');
    expect(toApiQuery({ status: '5xx' }).toString()).toBe('statusClass=5xx');
  });

  it.each([
    [{}, true],
    [{ method: 'POST' }, true],
    [{ method: 'GET' }, false],
    [{ status: '5xx' }, true],
    [{ status: '4xx' }, false],
    [{ status: '503' }, true],
    [{ status: '500' }, false],
    [{ host: 'API.example.com' }, true],
    [{ host: 'example.com' }, false],
    [{ url: 'ORDERS?id' }, true],
    [{ url: 'users' }, false],
    [{ source: 'proxy' }, true],
    [{ source: 'tunnel' }, false],
    [{ from: '2026-11-22T09:59:59Z' }, true],
    [{ from: '2026-11-22T10:00:01Z' }, false],
    [{ to: '2026-11-22T09:00:00Z' }, false],
    [{ minDurationMs: '12' }, true],
    [{ minDurationMs: '13' }, false],
  ])('applies %j to a live row: %s', (filters, expected) => {
    expect(matchesFilters(row, filters)).toBe(expected);
  });

  it('never matches a status filter against an exchange that has no response', () => {
    expect(matchesFilters({ ...row, status: null }, { status: '5xx' })).toBe(false);
  });
});
