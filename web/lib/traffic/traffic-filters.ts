import type { ExchangeRow } from '../api/traffic-schemas';

/** Search and filters of the traffic monitor; the same keys appear in the page URL and the read API's query. */
export type TrafficFilters = {
  method?: string;
  /** an exact code (`404`) or a class (`5xx`) */
  status?: string;
  /** host name without port, exact (case-insensitive), as the read API filters it */
  host?: string;
  /** substring of the URL */
  url?: string;
  source?: string;
  /** ISO date-times */
  from?: string;
  to?: string;
  /** took at least this many milliseconds */
  minDurationMs?: string;
};

export const FILTER_KEYS = ['method', 'status', 'host', 'url', 'source', 'from', 'to', 'minDurationMs'] as const;
export const TRAFFIC_SOURCES = ['proxy', 'forward', 'tunnel', 'engine'] as const;

const STATUS_PATTERN = /^(?:[1-5]\d\d|[1-5]xx)$/i;

/** Reads filters from a page URL query; values that cannot mean anything are dropped, not guessed. */
export function readFilters(query: URLSearchParams): TrafficFilters {
  const filters: TrafficFilters = {};
  for (const key of FILTER_KEYS) {
    const value = query.get(key)?.trim();
    if (!value) continue;
    if (key === 'status' && !STATUS_PATTERN.test(value)) continue;
    if ((key === 'from' || key === 'to') && Number.isNaN(Date.parse(value))) continue;
    if (key === 'minDurationMs' && !/^\d{1,8}$/.test(value)) continue;
    filters[key] = key === 'method' ? value.toUpperCase() : key === 'status' ? value.toLowerCase() : value;
  }
  return filters;
}

/** The page URL's query for a set of filters (stable key order so URLs compare equal). */
export function writeFilters(filters: TrafficFilters): URLSearchParams {
  const query = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (value) query.set(key, value);
  }
  return query;
}

/** The read API's query: an exact status goes as `status`, a class as `statusClass`. */
export function toApiQuery(filters: TrafficFilters): URLSearchParams {
  const query = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (!value) continue;
    if (key === 'status' && /xx$/i.test(value)) query.set('statusClass', value.toLowerCase());
    else query.set(key, value);
  }
  return query;
}

export function hasFilters(filters: TrafficFilters): boolean {
  return FILTER_KEYS.some((key) => Boolean(filters[key]));
}

/** Applies the filters to a row in the browser, so the live feed obeys them even if a server ignores one. */
export function matchesFilters(row: ExchangeRow, filters: TrafficFilters): boolean {
  if (filters.method && row.method !== filters.method.toUpperCase()) return false;
  if (filters.status) {
    if (row.status === null) return false;
    const wanted = filters.status.toLowerCase();
    if (wanted.endsWith('xx')) {
      if (String(row.status)[0] !== wanted[0]) return false;
    } else if (String(row.status) !== wanted) return false;
  }
  if (filters.host && stripPort(row.host).toLowerCase() !== stripPort(filters.host).toLowerCase()) return false;
  if (filters.url && !row.url.toLowerCase().includes(filters.url.toLowerCase())) return false;
  if (filters.source && row.source !== filters.source) return false;
  if (filters.minDurationMs && (row.durationMs ?? 0) < Number(filters.minDurationMs)) return false;
  const time = Date.parse(row.timestamp);
  if (filters.from && time < Date.parse(filters.from)) return false;
  if (filters.to && time > Date.parse(filters.to)) return false;
  return true;
}

function stripPort(host: string): string {
  return host.startsWith('[') ? host.replace(/\]:\d+$/, ']') : host.replace(/:\d+$/, '');
}
