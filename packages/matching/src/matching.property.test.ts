import fc from 'fast-check';
import { toMatchableRequest } from './matchable-request';
import { matchRequestPattern } from './match-request-pattern';
import type { RequestPattern } from './stub-mapping';
import { validateRequestPattern, validateStubMapping } from './validate-stub-mapping';

const SEED = 424242;

const textPattern = fc.oneof(
  fc.record({ equalTo: fc.string({ maxLength: 8 }) }),
  fc.record({ equalTo: fc.string({ maxLength: 8 }), caseInsensitive: fc.boolean() }),
  fc.record({ contains: fc.string({ maxLength: 4 }) }),
  fc.record({ doesNotContain: fc.string({ maxLength: 4 }) }),
  fc.record({ matches: fc.constantFrom('.*', '[a-z]+', 'a.c', '(?i)ABC', '[0-9]{2,4}') }),
  fc.record({ doesNotMatch: fc.constantFrom('.*', '[a-z]+', 'x+') }),
  fc.record({ absent: fc.boolean() }),
  fc.record({ equalToJson: fc.jsonValue({ maxDepth: 2 }), ignoreArrayOrder: fc.boolean(), ignoreExtraElements: fc.boolean() }),
  fc.record({ matchesJsonPath: fc.constantFrom('$.a', '$.b[0]', "$[?(@.a == 1)]") }),
  fc.record({ matchesJsonPath: fc.record({ expression: fc.constantFrom('$.a', '$.b'), equalTo: fc.string({ maxLength: 3 }) }) }),
  fc.record({ before: fc.constantFrom('now', 'now +1 days', '2021-06-14T12:00:00Z') }),
  fc.record({ matchesXPath: fc.constantFrom('/a', '/a/b', 'count(/a/b) = 1') }),
);
const contentPattern = fc.oneof(textPattern, fc.record({ not: textPattern }), fc.record({ and: fc.array(textPattern, { minLength: 1, maxLength: 3 }) }), fc.record({ or: fc.array(textPattern, { minLength: 1, maxLength: 3 }) }));
const name = fc.constantFrom('a', 'b', 'X-Id', 'accept');

const requestPattern: fc.Arbitrary<RequestPattern> = fc.record(
  {
    method: fc.constantFrom('GET', 'POST', 'ANY'),
    urlPath: fc.constantFrom('/a', '/a/b', '/things/1'),
    queryParameters: fc.dictionary(name, fc.oneof(contentPattern, fc.record({ hasExactly: fc.array(textPattern, { minLength: 1, maxLength: 2 }) }), fc.record({ includes: fc.array(textPattern, { minLength: 1, maxLength: 2 }) })), { maxKeys: 2 }),
    headers: fc.dictionary(name, contentPattern, { maxKeys: 2 }),
    cookies: fc.dictionary(name, contentPattern, { maxKeys: 1 }),
    bodyPatterns: fc.array(contentPattern, { maxLength: 2 }),
    host: fc.record({ equalTo: fc.constantFrom('localhost', 'api.local') }),
    port: fc.constantFrom(80, 8080),
  },
  { requiredKeys: [] },
);

const request = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT'),
  path: fc.constantFrom('/a', '/a/b', '/things/1', '/x'),
  query: fc.array(fc.tuple(name, fc.string({ maxLength: 4 })), { maxLength: 3 }),
  headers: fc.dictionary(fc.constantFrom('x-id', 'accept', 'a'), fc.array(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 2 }), { maxKeys: 2 }),
  body: fc.oneof(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)), fc.constantFrom('<a><b>1</b></a>', '{"a":1,"b":[1]}')),
});

describe('matching properties', () => {
  it('validateStubMapping never throws on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (json) => {
        validateStubMapping(json);
        validateRequestPattern(json);
        validateStubMapping({ request: json, response: json });
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('validateStubMapping never throws on stub-shaped objects with random operators', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('url', 'urlPattern', 'headers', 'bodyPatterns', 'queryParameters', 'method', 'pathParameters'), fc.jsonValue({ maxDepth: 3 })), (requestJson) => {
        validateStubMapping({ request: requestJson });
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('matchRequestPattern gives a distance in [0,1] that is 0 exactly when isExactMatch', () => {
    fc.assert(
      fc.property(requestPattern, request, (pattern, raw) => {
        const validation = validateRequestPattern(pattern);
        fc.pre(validation.ok);
        const query = raw.query.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&');
        const matchable = toMatchableRequest({ method: raw.method, url: query ? `${raw.path}?${query}` : raw.path, headers: { host: 'localhost:8080', ...raw.headers }, body: raw.body });
        const result = matchRequestPattern(pattern, matchable);
        expect(result.distance).toBeGreaterThanOrEqual(0);
        expect(result.distance).toBeLessThanOrEqual(1);
        expect(result.distance === 0).toBe(result.isExactMatch);
        expect(result.diffs.every((diff) => diff.matched) || !result.isExactMatch).toBe(true);
        const fast = matchRequestPattern(pattern, matchable, { exactOnly: true });
        expect(fast.isExactMatch).toBe(result.isExactMatch);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});
