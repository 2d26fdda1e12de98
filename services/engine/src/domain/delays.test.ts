import { computeDelayMs, createDefaultSettings, sampleDelayMs } from './delays';

describe('sampleDelayMs', () => {
  it.each([
    [{ type: 'uniform' as const, lower: 10, upper: 20 }, 0, 10],
    [{ type: 'uniform' as const, lower: 10, upper: 20 }, 0.5, 15],
    [{ type: 'fixed' as const, milliseconds: 42 }, 0.3, 42],
  ])('draws %j with random %d as %d', (distribution, r, expected) => {
    expect(sampleDelayMs(distribution, () => r)).toBe(expected);
  });

  it('returns the median for a lognormal draw at the centre of the normal', () => {
    // u1 = e^-0 would be 1 -> sqrt(0) = 0 -> exp(0) = 1 -> median
    expect(sampleDelayMs({ type: 'lognormal', median: 80, sigma: 0.4 }, () => 1)).toBe(80);
  });

  it('caps a lognormal draw at maxValue', () => {
    const draws = [1e-9, 0];
    expect(sampleDelayMs({ type: 'lognormal', median: 80, sigma: 2, maxValue: 100 }, () => draws.shift() ?? 0)).toBe(100);
  });
});

describe('computeDelayMs', () => {
  it.each([
    [{}, {}, 0],
    [{ fixedDelayMilliseconds: 5 }, { fixedDelay: 100 }, 5],
    [{}, { fixedDelay: 100 }, 100],
    [{ fixedDelayMilliseconds: 5 }, { delayDistribution: { type: 'fixed' as const, milliseconds: 7 } }, 12],
  ])('combines stub %j and settings %j into %d ms', (response, settings, expected) => {
    expect(computeDelayMs(response, { ...createDefaultSettings(), ...settings })).toBe(expected);
  });
});
