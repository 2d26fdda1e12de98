import { requestJson, requestRaw } from './request-json';
import { ExchangeDetailSchema, ExchangePageSchema, toExchangeRow, type ExchangeRow } from './traffic-schemas';
import { toApiQuery, type TrafficFilters } from '../traffic/traffic-filters';

/**
 * The traffic read API as the browser reaches it: through this app's forwarder at /bff/traffic (which adds
 * the API key held server-side or entered once; the browser cannot, and EventSource sends no headers), so the
 * same calls work behind the gateway and alone.
 */
export const TRAFFIC_BASE = '/bff/traffic';
export const HISTORY_PAGE_SIZE = 100;

export const trafficClient = {
  /**
   * A page of history rows as summaries, the live feed's shape (sizes and engine, no headers or bodies): rows
   * look the same live and after a reload, and a page of large captured bodies stays a few KB.
   */
  async fetchHistory(filters: TrafficFilters, page: number, size = HISTORY_PAGE_SIZE) {
    const query = toApiQuery(filters);
    query.set('view', 'summary');
    query.set('page', String(page));
    query.set('size', String(size));
    const result = await requestJson(`${TRAFFIC_BASE}/exchanges?${query}`, ExchangePageSchema);
    return { ...result, rows: result.content.map(toExchangeRow) as ExchangeRow[] };
  },
  fetchExchange: (id: string) => requestJson(`${TRAFFIC_BASE}/exchanges/${encodeURIComponent(id)}`, ExchangeDetailSchema),
  clearAll: () => requestRaw(`${TRAFFIC_BASE}/exchanges`, { method: 'DELETE' }),
  /**
   * A cheap call that needs the key (one row): made when the browser gave up on the live feed, because
   * EventSource cannot tell a refused key (401) from a server that is down. Throws ApiError as any call.
   */
  probe: () => requestRaw(`${TRAFFIC_BASE}/requests?size=1`, { timeoutMs: 5000 }),
  harUrl: (filters: TrafficFilters) => `${TRAFFIC_BASE}/exchanges/har?${toApiQuery(filters)}`,
  streamUrl: (filters: TrafficFilters) => `${TRAFFIC_BASE}/stream?${toApiQuery(filters)}`,
};
