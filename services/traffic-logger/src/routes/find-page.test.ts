import type { StoredExchange } from '../domain/stored-exchange';
import { findPage } from './find-page';

const row = (seq: number) => ({ seq }) as StoredExchange;

function fakeRepo(rows: number, counted: { count: number; exact: boolean }) {
  const calls = { count: 0 };
  return {
    calls,
    repo: {
      list: async (_f: unknown, page: number, size: number) => {
        const items = Array.from({ length: Math.max(0, Math.min(size, rows - page * size)) }, (_, i) => row(page * size + i));
        return { items, hasMore: rows > (page + 1) * size };
      },
      count: async () => {
        calls.count += 1;
        return counted;
      },
    },
  };
}
const opts = { exactLimit: 10000, timeoutMs: 25 };

describe('findPage', () => {
  it('answers a page that proves its total without counting', async () => {
    const { repo, calls } = fakeRepo(7, { count: 999, exact: false });
    const page = await findPage(repo, {}, 0, 20, opts, (x) => x.seq);
    expect(page).toMatchObject({ totalElements: 7, totalElementsExact: true, last: true });
    expect(calls.count).toBe(0);
  });

  it('answers the last page of a large set exactly without counting', async () => {
    const { repo, calls } = fakeRepo(45, { count: 999, exact: false });
    expect(await findPage(repo, {}, 2, 20, opts, (x) => x.seq)).toMatchObject({ totalElements: 45, totalPages: 3, last: true, totalElementsExact: true });
    expect(calls.count).toBe(0);
  });

  it('counts when more pages follow and reports an estimate as such', async () => {
    const { repo, calls } = fakeRepo(50000, { count: 48000, exact: false });
    expect(await findPage(repo, {}, 0, 20, opts, (x) => x.seq)).toMatchObject({ totalElements: 48000, totalElementsExact: false, last: false });
    expect(calls.count).toBe(1);
  });

  it('counts for a page past the end', async () => {
    const { repo, calls } = fakeRepo(5, { count: 5, exact: true });
    expect(await findPage(repo, {}, 3, 20, opts, (x) => x.seq)).toMatchObject({ totalElements: 5, empty: true });
    expect(calls.count).toBe(1);
  });

  it('takes the total the list query counted instead of counting again', async () => {
    const { repo, calls } = fakeRepo(110, { count: 999, exact: false });
    const withTotal = { ...repo, list: async (f: unknown, page: number, size: number) => ({ ...(await repo.list(f, page, size)), total: 110 }) };
    expect(await findPage(withTotal, {}, 0, 20, opts, (x) => x.seq)).toMatchObject({ totalElements: 110, totalElementsExact: true, totalPages: 6, last: false });
    expect(calls.count).toBe(0);
  });
});
