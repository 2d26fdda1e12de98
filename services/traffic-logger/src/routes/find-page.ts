import { buildPage, type Page } from '@mockyard/contracts';
import type { ExchangeRepo } from '../adapters/exchange.repo';
import type { ExchangeProjection } from '../adapters/exchange-sql';
import type { ExchangeFilter } from '../domain/exchange-filter';
import type { StoredExchange } from '../domain/stored-exchange';

/**
 * One page newest first plus totals. The list goes first: when it proves the total by itself (a page
 * that is not full, or the last one), or when the list query counted every match anyway (a rare URL
 * substring), no count runs at all — rare filters would otherwise pay for finding their matches twice.
 */
export async function findPage<T>(
  repo: Pick<ExchangeRepo, 'list' | 'count'>,
  filter: ExchangeFilter,
  page: number,
  size: number,
  count: { exactLimit: number; timeoutMs: number },
  view: (x: StoredExchange) => T,
  projection: ExchangeProjection = 'full',
): Promise<Page<T>> {
  const list = await repo.list(filter, page, size, projection);
  const content = list.items.map(view);
  if (!list.hasMore && (content.length > 0 || page === 0)) {
    return buildPage(content, { totalElements: page * size + content.length, exact: true, hasMore: false }, page, size);
  }
  if (list.total !== undefined) {
    return buildPage(content, { totalElements: list.total, exact: true, hasMore: list.hasMore }, page, size);
  }
  const total = await repo.count(filter, count.exactLimit, count.timeoutMs);
  return buildPage(content, { totalElements: total.count, exact: total.exact, hasMore: list.hasMore }, page, size);
}
