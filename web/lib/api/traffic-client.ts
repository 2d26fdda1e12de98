import { requestJson, requestRaw } from './request-json';
import { ExchangeDetailSchema, ExchangePageSchema, toExchangeRow, type ExchangeRow } from './traffic-schemas';
import { toApiQuery, type TrafficFilters } from '../traffic/traffic-filters';

/** The traffic read API (public at /api through the gateway; forwarded by app/api when running alone). */
export const TRAFFIC_BASE = '/api';
export const HISTORY_PAGE_SIZE = 100;

export const trafficClient = {
  async fetchHistory(filters: TrafficFilters, page: number, size = HISTORY_PAGE_SIZE) {
    const query = toApiQuery(filters);
    query.set('page', String(page));
    query.set('size', String(size));
    const result = await requestJson(`${TRAFFIC_BASE}/requests?${query}`, ExchangePageSchema);
    return { ...result, rows: result.content.map(toExchangeRow) as ExchangeRow[] };
  },
  fetchExchange: (id: string) => requestJson(`${TRAFFIC_BASE}/exchanges/${encodeURIComponent(id)}`, ExchangeDetailSchema),
  clearAll: () => requestRaw(`${TRAFFIC_BASE}/exchanges`, { method: 'DELETE' }),
  harUrl: (filters: TrafficFilters) => `${TRAFFIC_BASE}/exchanges/har?${toApiQuery(filters)}`,
  streamUrl: (filters: TrafficFilters) => `${TRAFFIC_BASE}/stream?${toApiQuery(filters)}`,
};
