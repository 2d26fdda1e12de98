import { entriesThatFit } from './traffic-consumer';

describe('entriesThatFit', () => {
  it('reads the whole count when there is no byte bound', () => {
    expect(entriesThatFit(500, Infinity, 0)).toBe(500);
    expect(entriesThatFit(500, Infinity, 1_000_000)).toBe(500);
  });

  it('reads a few entries while their size is not known yet', () => {
    expect(entriesThatFit(500, 4_194_304, 0)).toBe(16);
    expect(entriesThatFit(5, 4_194_304, 0)).toBe(5);
  });

  it('reads as many entries as fit in the bytes left at the recent size', () => {
    expect(entriesThatFit(500, 4_194_304, 1_000)).toBe(500);
    expect(entriesThatFit(500, 4_194_304, 100_000)).toBe(41);
    expect(entriesThatFit(500, 250_000, 100_000)).toBe(2);
  });

  it('reads at least one entry, even one larger than the bound', () => {
    expect(entriesThatFit(500, 4_194_304, 10_000_000)).toBe(1);
    expect(entriesThatFit(500, 0, 1_000)).toBe(1);
  });
});
