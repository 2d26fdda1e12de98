import { compileMultiValuePattern } from './compile-multi-value-pattern';

describe('compileMultiValuePattern', () => {
  it.each<[string, unknown, string[] | undefined, boolean]>([
    ['a single pattern matches when any value matches', { equalTo: 'b' }, ['a', 'b'], true],
    ['a single pattern misses when no value matches', { equalTo: 'c' }, ['a', 'b'], false],
    ['absent matches a missing field', { absent: true }, undefined, true],
    ['absent misses a present field', { absent: true }, ['x'], false],
    ['hasExactly matches the same values in any order', { hasExactly: [{ equalTo: '1' }, { equalTo: '2' }] }, ['2', '1'], true],
    ['hasExactly misses an extra value', { hasExactly: [{ equalTo: '1' }, { equalTo: '2' }] }, ['1', '2', '3'], false],
    ['hasExactly misses a missing value', { hasExactly: [{ equalTo: '1' }, { equalTo: '2' }] }, ['1'], false],
    ['hasExactly needs distinct values', { hasExactly: [{ equalTo: '1' }, { equalTo: '1' }] }, ['1', '2'], false],
    ['includes matches a subset', { includes: [{ equalTo: '1' }, { matches: '[a-z]' }] }, ['1', 'x', '9'], true],
    ['includes misses a missing value', { includes: [{ equalTo: '1' }, { equalTo: '5' }] }, ['1', '2'], false],
    ['includes misses an absent field', { includes: [{ equalTo: '1' }] }, undefined, false],
  ])('%s', (_name, spec, values, exact) => {
    const d = compileMultiValuePattern(spec, 'q').distance(values);
    expect(d >= 0 && d <= 1).toBe(true);
    expect(d === 0).toBe(exact);
  });

  it.each<[string, unknown, RegExp]>([
    ['hasExactly that is not an array', { hasExactly: { equalTo: 'x' } }, /non-empty array/],
    ['includes combined with another operator', { includes: [{ equalTo: 'x' }], equalTo: 'y' }, /cannot be combined/],
    ['a bad pattern inside hasExactly', { hasExactly: [{ nope: 'x' }] }, /unknown match operator/],
  ])('rejects %s', (_name, spec, message) => {
    expect(() => compileMultiValuePattern(spec, 'q')).toThrow(message);
  });
});
