import { buildPage, type Page } from '@mockyard/contracts';
import type { ExchangeRepo } from '../adapters/exchange.repo';
import type { ExchangeFilter } from '../domain/exchange-filter';
import type { StoredExchange } from '../domain/stored-exchange';

/** One page newest first plus totals; the list and the (capped) count run side by side. */
export async function findPage<T>(
  repo: Pick<ExchangeRepo, 'list' | 'count'>,
  filter: ExchangeFilter,
  page: number,
  size: number,
  count: { exactLimit: number; timeoutMs: number },
  view: (x: StoredExchange) => T,
): Promise<Page<T>> {
  const [list, total] = await Promise.all([repo.list(filter, page, size), repo.count(filter, count.exactLimit, count.timeoutMs)]);
  return buildPage(list.items.map(view), { totalElements: total.count, exact: total.exact, hasMore: list.hasMore }, page, size);
}
