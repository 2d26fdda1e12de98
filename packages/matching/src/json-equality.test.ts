import { compileContentPattern } from './compile-content-pattern';
import { measureJsonDistance } from './json-equality';

const strict = { ignoreArrayOrder: false, ignoreExtraElements: false };

describe('equalToJson', () => {
  it.each<[string, unknown, unknown, Partial<typeof strict>, boolean]>([
    ['equal objects in any key order', { a: 1, b: 'x' }, { b: 'x', a: 1 }, {}, true],
    ['an extra field', { a: 1 }, { a: 1, b: 2 }, {}, false],
    ['an extra field with ignoreExtraElements', { a: 1 }, { a: 1, b: 2 }, { ignoreExtraElements: true }, true],
    ['a missing field', { a: 1, b: 2 }, { a: 1 }, { ignoreExtraElements: true }, false],
    ['arrays in another order', [1, 2, 3], [3, 2, 1], {}, false],
    ['arrays in another order with ignoreArrayOrder', [1, 2, 3], [3, 2, 1], { ignoreArrayOrder: true }, true],
    ['objects in arrays with ignoreArrayOrder', [{ id: 1 }, { id: 2 }], [{ id: 2 }, { id: 1 }], { ignoreArrayOrder: true }, true],
    ['extra array items with ignoreExtraElements', [1, 2], [1, 2, 3], { ignoreExtraElements: true }, true],
    ['extra array items', [1, 2], [1, 2, 3], {}, false],
    ['a type change', { a: 1 }, { a: '1' }, {}, false],
    ['nested objects', { a: { b: { c: [true, null] } } }, { a: { b: { c: [true, null] } } }, {}, true],
    ['${json-unit.ignore} accepts any value', { id: '${json-unit.ignore}' }, { id: [1, 2] }, {}, true],
    ['${json-unit.any-string} accepts a string', { id: '${json-unit.any-string}' }, { id: 'x' }, {}, true],
    ['${json-unit.any-string} rejects a number', { id: '${json-unit.any-string}' }, { id: 1 }, {}, false],
    ['${json-unit.any-number} accepts a number', { n: '${json-unit.any-number}' }, { n: 1.5 }, {}, true],
    ['${json-unit.any-number} rejects a string', { n: '${json-unit.any-number}' }, { n: '1' }, {}, false],
    ['${json-unit.any-boolean} accepts false', { b: '${json-unit.any-boolean}' }, { b: false }, {}, true],
    ['${json-unit.regex} matches the whole value', { id: '${json-unit.regex}[A-Z]{3}-\\d+' }, { id: 'ABC-12' }, {}, true],
    ['${json-unit.regex} misses', { id: '${json-unit.regex}[A-Z]{3}' }, { id: 'abc' }, {}, false],
    // as WireMock (JsonUnit): `ignore` needs the field, `ignore-element` does not
    ['${json-unit.ignore} for a missing field', { a: 1, b: '${json-unit.ignore}' }, { a: 1 }, {}, false],
    ['${json-unit.ignore} for a present field', { a: 1, b: '${json-unit.ignore}' }, { a: 1, b: [2] }, {}, true],
    ['${json-unit.ignore-element} for a missing field', { a: 1, b: '${json-unit.ignore-element}' }, { a: 1 }, {}, true],
  ])('%s', (_name, expected, actual, options, exact) => {
    const d = measureJsonDistance(expected, actual, { ...strict, ...options });
    expect(d >= 0 && d <= 1).toBe(true);
    expect(d === 0).toBe(exact);
  });

  it('grades a document with one wrong field closer than one with all fields wrong', () => {
    const expected = { a: 1, b: 2, c: 3, d: 4 };
    const oneWrong = measureJsonDistance(expected, { a: 1, b: 2, c: 3, d: 5 }, strict);
    const allWrong = measureJsonDistance(expected, { a: 9, b: 9, c: 9, d: 9 }, strict);
    expect(oneWrong).toBeGreaterThan(0);
    expect(oneWrong).toBeLessThan(allWrong);
  });

  it('grades huge unordered arrays without a quadratic search', () => {
    const expected = Array.from({ length: 5000 }, (_, id) => ({ id }));
    const same = [...expected].reverse();
    const different = expected.map(({ id }) => ({ id: -id - 1 }));
    expect(measureJsonDistance(expected, same, { ...strict, ignoreArrayOrder: true })).toBe(0);
    expect(measureJsonDistance(expected, different, { ...strict, ignoreArrayOrder: true })).toBeGreaterThan(0.5);
  });

  it('applies the options given on the pattern', () => {
    const pattern = compileContentPattern({ equalToJson: '[1,2]', ignoreArrayOrder: true }, 'p');
    expect(pattern.distance('[2,1]')).toBe(0);
  });

  it('rejects a catastrophic ${json-unit.regex} at validation', () => {
    expect(() => compileContentPattern({ equalToJson: { a: '${json-unit.regex}(a+)+' } }, 'p')).toThrow(/catastrophically/);
  });
});
