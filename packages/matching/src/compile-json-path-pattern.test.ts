import { compileContentPattern } from './compile-content-pattern';

const body = JSON.stringify({
  name: 'Bob',
  age: 42,
  nothing: null,
  things: [{ name: 'a', n: 1 }, { name: 'RequiredThing', n: 2 }],
  address: { city: 'Paris' },
  tags: ['x', 'y'],
  empty: [],
  none: {},
});

describe('matchesJsonPath', () => {
  it.each<[string, unknown, boolean]>([
    ['an existing field', '$.name', true],
    ['a missing field', '$.missing', false],
    ['a null field counts as missing', '$.nothing', false],
    // as WireMock: an empty array or object selected by a definite path is no match
    ['an empty array', '$.empty', false],
    ['an empty object', '$.none', false],
    ['a non-empty array', '$.tags', true],
    ['a filter that selects something', "$.things[?(@.name == 'RequiredThing')]", true],
    ['a filter that selects nothing', "$.things[?(@.name == 'Other')]", false],
    ['a numeric filter', '$.things[?(@.n > 1)]', true],
    ['a Jayway regex filter (=~)', '$.things[?(@.name =~ /Req.*/)]', true],
    ['a Jayway regex filter matches the whole value', '$.things[?(@.name =~ /Thing/)]', false],
    ['a root filter applied to the root object', '$[?(@.age == 42)]', true],
    ['a root filter that fails', '$[?(@.age == 41)]', false],
    ['the Jayway size() function in a filter', '$[?(@.things.size() == 2)]', true],
    ['equalTo sub-matcher', { expression: '$.name', equalTo: 'Bob' }, true],
    ['equalTo sub-matcher miss', { expression: '$.name', equalTo: 'Alice' }, false],
    ['sub-matcher on a number', { expression: '$.age', equalTo: '42' }, true],
    ['contains sub-matcher on an object', { expression: '$.address', contains: 'Paris' }, true],
    ['equalToJson sub-matcher', { expression: '$.address', equalToJson: { city: 'Paris' } }, true],
    ['absent sub-matcher on a missing field', { expression: '$.missing', absent: true }, true],
    ['absent sub-matcher on a present field', { expression: '$.name', absent: true }, false],
    ['any element of an indefinite path', { expression: '$.things[*].name', equalTo: 'RequiredThing' }, true],
    ['no element of an indefinite path', { expression: '$.things[*].name', equalTo: 'zzz' }, false],
    ['a whole selected array as JSON', { expression: '$.tags', equalToJson: ['x', 'y'] }, true],
    ['matches sub-matcher', { expression: '$.name', matches: 'B.b' }, true],
    ['size() at the end of the path', { expression: '$.tags.size()', equalTo: '2' }, true],
    ['the Jayway in operator', "$.things[?(@.name in ['a', 'zz'])]", true],
    ['the Jayway in operator miss', "$.things[?(@.name in ['zz'])]", false],
    ['the Jayway nin operator', "$.things[?(@.name nin ['a', 'RequiredThing'])]", false],
    ['the Jayway empty operator', '$[?(@.tags empty false)]', true],
    ['the Jayway size operator', '$[?(@.tags size 2)]', true],
    ['the Jayway size operator miss', '$[?(@.tags size 3)]', false],
  ])('%s', (_name, spec, exact) => {
    const d = compileContentPattern({ matchesJsonPath: spec }, 'p').distance(body);
    expect(d >= 0 && d <= 1).toBe(true);
    expect(d === 0).toBe(exact);
  });

  it('misses a body that is not JSON', () => {
    expect(compileContentPattern({ matchesJsonPath: '$.a' }, 'p').distance('<xml/>')).toBe(1);
  });

  it.each<[string, unknown, RegExp]>([
    ['an expression without $', 'name', /must start with/],
    ['a missing expression', { equalTo: 'x' }, /expression/],
    ['two sub-matchers', { expression: '$.a', equalTo: 'x', contains: 'y' }, /only one match operator/],
    ['an unknown sub-matcher', { expression: '$.a', equalsTo: 'x' }, /unknown match operator/],
    ['a catastrophic =~ regex', '$.a[?(@.b =~ /(a+)+/)]', /catastrophically/],
    ['a catastrophic regex literal', '$.a[?(@.b.match(/(a+)+$/))]', /catastrophically/],
  ])('rejects %s', (_name, spec, message) => {
    expect(() => compileContentPattern({ matchesJsonPath: spec }, 'p')).toThrow(message);
  });
});
