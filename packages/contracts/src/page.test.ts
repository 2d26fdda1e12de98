import { buildPage } from './page';

describe('buildPage', () => {
  it('computes Spring-style totals from an exact count', () => {
    expect(buildPage([1, 2], 42, 2, 20)).toMatchObject({ totalElements: 42, totalPages: 3, number: 2, size: 20, numberOfElements: 2, first: false, last: true, totalElementsExact: true });
  });

  it('never reports fewer elements than the page proves to exist', () => {
    const page = buildPage(new Array(20).fill(0), { totalElements: 5, exact: false, hasMore: true }, 3, 20);
    expect(page.totalElements).toBe(81);
    expect(page.last).toBe(false);
  });

  it('turns an estimate exact on the last page', () => {
    const page = buildPage([1, 2, 3], { totalElements: 90000, exact: false, hasMore: false }, 1, 20);
    expect(page).toMatchObject({ totalElements: 23, totalPages: 2, last: true, totalElementsExact: true });
  });

  it('marks an empty page as empty and last', () => {
    expect(buildPage([], { totalElements: 0, hasMore: false }, 0, 20)).toMatchObject({ empty: true, last: true, totalPages: 0 });
  });
});
