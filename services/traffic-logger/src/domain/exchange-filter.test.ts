import { matchesExchangeFilter, type ExchangeFilter, type FilterableExchange } from './exchange-filter';

const x: FilterableExchange = {
  method: 'POST',
  status: 503,
  host: 'api.example.test',
  url: 'http://api.example.test/Orders/42',
  startedAt: new Date('2026-11-22T10:00:00Z'),
  durationMs: 250,
  source: 'proxy',
};

describe('matchesExchangeFilter', () => {
  it.each<[string, ExchangeFilter, boolean]>([
    ['no filter', {}, true],
    ['same method', { method: 'POST' }, true],
    ['other method', { method: 'GET' }, false],
    ['same status', { status: 503 }, true],
    ['other status', { status: 500 }, false],
    ['status class', { statusClass: 5 }, true],
    ['other status class', { statusClass: 4 }, false],
    ['host', { host: 'api.example.test' }, true],
    ['other host', { host: 'example.test' }, false],
    ['url substring, any case', { urlContains: 'orders/4' }, true],
    ['url substring absent', { urlContains: 'carts' }, false],
    ['from before start', { from: new Date('2026-11-22T09:59:59Z') }, true],
    ['from equal to start', { from: new Date('2026-11-22T10:00:00Z') }, true],
    ['to equal to start (exclusive)', { to: new Date('2026-11-22T10:00:00Z') }, false],
    ['min duration met', { minDurationMs: 250 }, true],
    ['min duration not met', { minDurationMs: 251 }, false],
    ['source', { source: 'forward' }, false],
    ['combined, all hold', { method: 'POST', statusClass: 5, host: 'api.example.test' }, true],
    ['combined, one fails', { method: 'POST', status: 200 }, false],
  ])('%s', (_name, filter, expected) => {
    expect(matchesExchangeFilter(x, filter)).toBe(expected);
  });

  it.each<[string, ExchangeFilter]>([
    ['status', { status: 503 }],
    ['status class', { statusClass: 5 }],
    ['responses only', { hasResponse: true }],
  ])('never matches an exchange without response on %s', (_name, filter) => {
    expect(matchesExchangeFilter({ ...x, status: null }, filter)).toBe(false);
  });
});
