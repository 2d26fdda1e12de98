import { setHeapGrowingPercent } from './set-heap-growing-percent';

describe('setHeapGrowingPercent', () => {
  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses %p before touching V8', (percent) => {
    expect(() => setHeapGrowingPercent(percent)).toThrow(RangeError);
  });
});
