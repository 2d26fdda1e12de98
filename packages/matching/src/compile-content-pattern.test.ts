import { compileContentPattern } from './compile-content-pattern';
import { PatternError } from './pattern-error';

function distance(spec: unknown, value: string | undefined): number {
  return compileContentPattern(spec, 'p').distance(value);
}

describe('compileContentPattern', () => {
  it.each<[string, unknown, string | undefined, boolean]>([
    ['equalTo matches the same text', { equalTo: 'abc' }, 'abc', true],
    ['equalTo misses other text', { equalTo: 'abc' }, 'abd', false],
    ['equalTo misses an absent value', { equalTo: 'abc' }, undefined, false],
    ['equalTo is case-sensitive by default', { equalTo: 'ABC' }, 'abc', false],
    ['equalTo caseInsensitive ignores case', { equalTo: 'ABC', caseInsensitive: true }, 'abc', true],
    ['equalTo coerces a JSON number', { equalTo: 12 }, '12', true],
    ['binaryEqualTo compares the decoded bytes', { binaryEqualTo: Buffer.from('hi').toString('base64') }, 'hi', true],
    ['binaryEqualTo misses other bytes', { binaryEqualTo: Buffer.from('hi').toString('base64') }, 'ho', false],
    ['contains finds a substring', { contains: 'ell' }, 'hello', true],
    ['contains misses', { contains: 'xyz' }, 'hello', false],
    ['contains misses an absent value', { contains: 'x' }, undefined, false],
    ['doesNotContain passes without the substring', { doesNotContain: 'xyz' }, 'hello', true],
    ['doesNotContain fails with the substring', { doesNotContain: 'ell' }, 'hello', false],
    ['doesNotContain passes an absent value', { doesNotContain: 'x' }, undefined, true],
    ['matches needs the whole value to match', { matches: '[a-z]+' }, 'hello', true],
    ['matches is anchored like Java', { matches: 'ell' }, 'hello', false],
    ['matches supports (?i)', { matches: '(?i)HELLO' }, 'hello', true],
    ['matches misses an absent value', { matches: '.*' }, undefined, false],
    ['doesNotMatch passes a non-matching value', { doesNotMatch: '[0-9]+' }, 'abc', true],
    ['doesNotMatch fails a matching value', { doesNotMatch: '[a-z]+' }, 'abc', false],
    ['absent true passes a missing value', { absent: true }, undefined, true],
    ['absent true fails a present value', { absent: true }, 'x', false],
    ['absent false wants a value', { absent: false }, 'x', true],
    ['and needs every part', { and: [{ contains: 'a' }, { contains: 'b' }] }, 'ab', true],
    ['and misses when one part misses', { and: [{ contains: 'a' }, { contains: 'z' }] }, 'ab', false],
    ['or needs one part', { or: [{ equalTo: 'x' }, { equalTo: 'ab' }] }, 'ab', true],
    ['or misses when no part matches', { or: [{ equalTo: 'x' }, { equalTo: 'y' }] }, 'ab', false],
    ['not inverts a match', { not: { equalTo: 'ab' } }, 'ab', false],
    ['not inverts a miss', { not: { equalTo: 'x' } }, 'ab', true],
    ['equalToJson compares structure not text', { equalToJson: '{"a": 1, "b": [1,2]}' }, '{"b":[1,2],"a":1}', true],
    ['equalToJson accepts an inline object', { equalToJson: { a: 1 } }, '{"a":1}', true],
    ['equalToJson misses a different value', { equalToJson: { a: 1 } }, '{"a":2}', false],
    ['equalToJson misses text that is not JSON', { equalToJson: { a: 1 } }, 'nope', false],
    ['matchesJsonPath finds a field', { matchesJsonPath: '$.a' }, '{"a":1}', true],
    ['equalToXml compares documents', { equalToXml: '<a><b>1</b></a>' }, '<a>\n  <b>1</b>\n</a>', true],
    ['matchesXPath finds a node', { matchesXPath: '/a/b' }, '<a><b>1</b></a>', true],
    ['before compares dates', { before: '2030-01-01T00:00:00Z' }, '2021-06-14T12:00:00Z', true],
  ])('%s', (_name, spec, value, exact) => {
    const d = distance(spec, value);
    expect(d).toBeGreaterThanOrEqual(0);
    expect(d).toBeLessThanOrEqual(1);
    expect(d === 0).toBe(exact);
  });

  it('grades equalTo misses by normalised Levenshtein distance', () => {
    const near = distance({ equalTo: 'hello' }, 'hallo');
    const far = distance({ equalTo: 'hello' }, 'xxxxxxxxxx');
    expect(near).toBeCloseTo(0.2);
    expect(far).toBe(1);
    expect(near).toBeLessThan(far);
  });

  it.each<[string, unknown, string, RegExp]>([
    ['not an object', 'equalTo', 'p', /must be an object/],
    ['an unknown operator', { equalsTo: 'x' }, 'p', /unknown match operator 'equalsTo'/],
    ['two operators', { equalTo: 'x', contains: 'y' }, 'p', /only one match operator/],
    ['a modifier of another operator', { contains: 'x', caseInsensitive: true }, 'p.caseInsensitive', /not a valid modifier of contains/],
    ['a non-string value', { contains: 3 }, 'p.contains', /must be a string/],
    ['an invalid regex', { matches: '(' }, 'p.matches', /invalid regex/],
    ['a catastrophic regex', { matches: '(a+)+' }, 'p.matches', /catastrophically/],
    ['absent that is not boolean', { absent: 'yes' }, 'p.absent', /boolean/],
    ['equalToJson that is not JSON', { equalToJson: '{a' }, 'p.equalToJson', /not valid JSON/],
    ['an unknown json-unit placeholder', { equalToJson: { a: '${json-unit.whatever}' } }, 'p.equalToJson', /unknown json-unit placeholder/],
    ['an empty and', { and: [] }, 'p.and', /non-empty array/],
    ['a bad part inside or', { or: [{ equalTo: 'x' }, { nope: 1 }] }, 'p.or.1', /unknown match operator/],
    ['binaryEqualTo that is not base64', { binaryEqualTo: '***' }, 'p.binaryEqualTo', /base64/],
    ['matchesJsonSchema (not supported)', { matchesJsonSchema: {} }, 'p.matchesJsonSchema', /not supported/],
    ['a caseInsensitive that is not boolean', { equalTo: 'x', caseInsensitive: 'yes' }, 'p.caseInsensitive', /boolean/],
  ])('rejects %s with a path and message', (_name, spec, path, message) => {
    let error: unknown;
    try {
      compileContentPattern(spec, 'p');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PatternError);
    expect((error as PatternError).path).toBe(path);
    expect((error as PatternError).message).toMatch(message);
  });

  it('does not treat Object.prototype names as operators', () => {
    expect(() => compileContentPattern({ toString: 'x' }, 'p')).toThrow(/unknown match operator 'toString'/);
  });
});
