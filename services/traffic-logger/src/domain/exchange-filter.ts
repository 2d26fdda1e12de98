import type { TrafficSource } from '@mockyard/contracts';
import type { StoredExchange } from './stored-exchange';

/** Filters of the read API, the HAR export, deletion and the live feed. All given ones must hold. */
export interface ExchangeFilter {
  /** Uppercase HTTP method, exact. */
  method?: string;
  /** Response status, exact (exchanges without a response never match). */
  status?: number;
  /** First digit of the response status: 5 means 500-599. */
  statusClass?: number;
  /** Target host without port, lowercase, exact. */
  host?: string;
  /** Case-insensitive substring of the full target URL. */
  urlContains?: string;
  /** startedAt >= from */
  from?: Date;
  /** startedAt < to */
  to?: Date;
  minDurationMs?: number;
  source?: TrafficSource;
  /** Only exchanges that got a response (the `/api/responses` view). */
  hasResponse?: boolean;
}

export type FilterableExchange = Pick<StoredExchange, 'method' | 'status' | 'host' | 'url' | 'startedAt' | 'durationMs' | 'source'>;

/** The in-memory twin of the SQL filter (the live feed applies it to rows it already has). */
export function matchesExchangeFilter(x: FilterableExchange, f: ExchangeFilter): boolean {
  if (f.method !== undefined && x.method !== f.method) return false;
  if (f.status !== undefined && x.status !== f.status) return false;
  if (f.statusClass !== undefined && (x.status === null || Math.floor(x.status / 100) !== f.statusClass)) return false;
  if (f.hasResponse && x.status === null) return false;
  if (f.host !== undefined && x.host !== f.host) return false;
  if (f.urlContains !== undefined && !x.url.toLowerCase().includes(f.urlContains.toLowerCase())) return false;
  if (f.from !== undefined && x.startedAt.getTime() < f.from.getTime()) return false;
  if (f.to !== undefined && x.startedAt.getTime() >= f.to.getTime()) return false;
  if (f.minDurationMs !== undefined && (x.durationMs === null || x.durationMs < f.minDurationMs)) return false;
  if (f.source !== undefined && x.source !== f.source) return false;
  return true;
}

export function isEmptyFilter(f: ExchangeFilter): boolean {
  return Object.values(f).every((v) => v === undefined || v === false);
}
