import { exceedsJsonNestingDepth, MAX_JSON_NESTING_DEPTH } from './json-nesting-depth';

const nested = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);

describe('exceedsJsonNestingDepth', () => {
  it.each([
    ['a scalar', '1', 0, false],
    ['flat object at the limit', '{"a":1}', 1, false],
    ['two levels over a limit of one', '{"a":[1]}', 1, true],
    ['brackets inside strings do not count', '{"a":"[[[[{{{{"}', 1, false],
    ['escaped quotes keep the string open', '{"a":"\\"[[["}', 1, false],
    ['an escaped backslash closes the string normally', '{"a":"\\\\"}', 1, false],
    ['siblings do not add up', '[[1],[2],[3]]', 2, false],
  ])('%s', (_name, text, max, expected) => {
    expect(exceedsJsonNestingDepth(text, max)).toBe(expected);
  });

  it('accepts the default limit and refuses one more, without overflowing the stack on huge depths', () => {
    expect(exceedsJsonNestingDepth(nested(MAX_JSON_NESTING_DEPTH))).toBe(false);
    expect(exceedsJsonNestingDepth(nested(MAX_JSON_NESTING_DEPTH + 1))).toBe(true);
    expect(exceedsJsonNestingDepth(nested(1_000_000, '{"a":', '}'))).toBe(true);
  });
});

describe('request bodies nested deeper than the limit', () => {
  // Before the limit, equalToJson/matchesJsonPath and the not-matched report recursed into such a body and
  // overflowed the stack (the engine answered 500 instead of "not matched").
  const { matchRequestPattern, findNearMisses, formatNotMatchedReport, toMatchableRequest } = require('./index') as typeof import('./index');
  const deep = toMatchableRequest({ method: 'POST', url: '/deep', headers: { 'content-type': 'application/json' }, body: nested(200_000) });

  it.each([
    ['equalToJson', { equalToJson: { a: 1 } }],
    ['matchesJsonPath', { matchesJsonPath: '$.a' }],
    ['matchesJsonSchema', { matchesJsonSchema: { type: 'array' } }],
  ])('do not match %s and do not throw', (_name, bodyPattern) => {
    const result = matchRequestPattern({ method: 'POST', urlPath: '/deep', bodyPatterns: [bodyPattern] }, deep);
    expect(result.isExactMatch).toBe(false);
  });

  it('appear as plain text in the not-matched report', () => {
    const stubs = [{ id: 's', uuid: 's', request: { method: 'POST', urlPath: '/deep', bodyPatterns: [{ equalToJson: { a: 1 } }] }, response: { status: 200 } }];
    expect(formatNotMatchedReport(deep, findNearMisses(stubs, deep))).toContain('Request was not matched');
  });
});
