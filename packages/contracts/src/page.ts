import { z } from 'zod';

/**
 * Spring Data's page envelope (content, totalElements, totalPages, number, size, …): what the
 * traffic-proxy spec's users already know. `totalElementsExact` is ours: large filtered sets are
 * counted only up to a limit and then estimated (see the traffic-logger README).
 */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    content: z.array(item),
    totalElements: z.number().int(),
    totalPages: z.number().int(),
    number: z.number().int(),
    size: z.number().int(),
    numberOfElements: z.number().int(),
    first: z.boolean(),
    last: z.boolean(),
    empty: z.boolean(),
    totalElementsExact: z.boolean(),
  });
}
export type Page<T> = {
  content: T[];
  totalElements: number;
  totalPages: number;
  number: number;
  size: number;
  numberOfElements: number;
  first: boolean;
  last: boolean;
  empty: boolean;
  totalElementsExact: boolean;
};

export const DEFAULT_PAGE_SIZE = 20;
/** Largest `size` the read API accepts; larger is a 400 (bulk reads go through the HAR export). */
export const MAX_PAGE_SIZE = 200;

export interface PageTotals {
  totalElements: number;
  /** False when totalElements is an estimate. */
  exact?: boolean;
  /** Whether more items follow this page (known from fetching one extra row); overrides the estimate. */
  hasMore?: boolean;
}

export function buildPage<T>(content: T[], totals: number | PageTotals, number: number, size: number): Page<T> {
  const t = typeof totals === 'number' ? { totalElements: totals } : totals;
  // Never report fewer elements than this page proves to exist.
  const known = number * size + content.length + (t.hasMore ? 1 : 0);
  let totalElements = content.length > 0 || t.hasMore ? Math.max(t.totalElements, known) : t.totalElements;
  let exact = t.exact ?? true;
  // The last page of an estimated set tells the exact total.
  if (!exact && t.hasMore === false && content.length > 0) {
    totalElements = known;
    exact = true;
  }
  const totalPages = size > 0 ? Math.ceil(totalElements / size) : 0;
  const last = t.hasMore !== undefined ? !t.hasMore : number >= totalPages - 1;
  return {
    content,
    totalElements,
    totalPages,
    number,
    size,
    numberOfElements: content.length,
    first: number === 0,
    last,
    empty: content.length === 0,
    totalElementsExact: exact,
  };
}
