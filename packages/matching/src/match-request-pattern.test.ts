import { compileRequestPattern } from './compile-request-pattern';
import { toMatchableRequest, type RawRequestInput } from './matchable-request';
import { matchRequestPattern } from './match-request-pattern';
import type { RequestPattern } from './stub-mapping';

function request(overrides: Partial<RawRequestInput> = {}) {
  return toMatchableRequest({ method: 'GET', url: '/things/7?q=a&q=b&page=2', headers: { host: 'api.local:8080', accept: 'application/json' }, ...overrides });
}

function isExact(pattern: RequestPattern, raw: Partial<RawRequestInput> = {}): boolean {
  const result = matchRequestPattern(pattern, request(raw));
  expect(result.distance >= 0 && result.distance <= 1).toBe(true);
  expect(result.distance === 0).toBe(result.isExactMatch);
  return result.isExactMatch;
}

describe('matchRequestPattern', () => {
  it.each<[string, RequestPattern, Partial<RawRequestInput>, boolean]>([
    ['an empty pattern matches anything', {}, {}, true],
    ['method ANY', { method: 'ANY' }, { method: 'DELETE' }, true],
    ['the same method', { method: 'GET' }, {}, true],
    ['another method', { method: 'POST' }, {}, false],
    ['the method in any case (a deliberate difference: WireMock never matches "get")', { method: 'get' }, {}, true],
    ['method oneOf', { method: { oneOf: ['PUT', 'GET'] } }, {}, true],
    ['method noneOf', { method: { noneOf: ['GET'] } }, {}, false],
    ['url: path and query exactly', { url: '/things/7?q=a&q=b&page=2' }, {}, true],
    ['url: query differs', { url: '/things/7' }, {}, false],
    ['urlPath ignores the query', { urlPath: '/things/7' }, {}, true],
    ['urlPath differs', { urlPath: '/things/8' }, {}, false],
    ['urlPattern over path and query', { urlPattern: '/things/[0-9]+\\?.*' }, {}, true],
    ['urlPattern is anchored', { urlPattern: '/things/[0-9]+' }, {}, false],
    ['urlPathPattern over the path', { urlPathPattern: '/things/[0-9]+' }, {}, true],
    ['urlPathTemplate', { urlPathTemplate: '/things/{id}' }, {}, true],
    ['urlPathTemplate with pathParameters', { urlPathTemplate: '/things/{id}', pathParameters: { id: { matches: '[0-9]+' } } }, {}, true],
    ['urlPathTemplate with a failing pathParameter', { urlPathTemplate: '/things/{id}', pathParameters: { id: { equalTo: '8' } } }, {}, false],
    ['queryParameters equalTo one of several values', { queryParameters: { page: { equalTo: '2' } } }, {}, true],
    ['queryParameters hasExactly', { queryParameters: { q: { hasExactly: [{ equalTo: 'b' }, { equalTo: 'a' }] } } }, {}, true],
    ['queryParameters includes', { queryParameters: { q: { includes: [{ equalTo: 'a' }] } } }, {}, true],
    ['queryParameters absent', { queryParameters: { missing: { absent: true } } }, {}, true],
    ['queryParameters decoded', { queryParameters: { s: { equalTo: 'a b&c' } } }, { url: '/x?s=a+b%26c' }, true],
    ['headers are case-insensitive by name', { headers: { Accept: { contains: 'json' } } }, {}, true],
    ['a header value miss', { headers: { Accept: { equalTo: 'text/plain' } } }, {}, false],
    ['a missing header', { headers: { 'X-Id': { matches: '.+' } } }, {}, false],
    ['a header hasExactly', { headers: { 'X-Multi': { hasExactly: [{ equalTo: '1' }, { equalTo: '2' }] } } }, { headers: { host: 'h', 'x-multi': ['1', '2'] } }, true],
    ['cookies', { cookies: { session: { equalTo: 'abc' } } }, { headers: { host: 'h', cookie: 'a=1; session=abc' } }, true],
    ['a cookie miss', { cookies: { session: { equalTo: 'abc' } } }, { headers: { host: 'h', cookie: 'session=xyz' } }, false],
    // as WireMock: a missing cookie fails every pattern but absent, negated ones included (headers differ)
    ['a negated pattern on a missing cookie', { cookies: { session: { doesNotContain: 'v' } } }, { headers: { host: 'h', cookie: 'a=1' } }, false],
    ['not on a missing cookie', { cookies: { session: { not: { equalTo: 'v' } } } }, { headers: { host: 'h' } }, false],
    ['absent on a missing cookie', { cookies: { session: { absent: true } } }, { headers: { host: 'h', cookie: 'a=1' } }, true],
    ['a negated pattern on a present cookie', { cookies: { session: { doesNotContain: 'v' } } }, { headers: { host: 'h', cookie: 'session=abc' } }, true],
    ['formParameters', { formParameters: { name: { equalTo: 'Bo b' } } }, { method: 'POST', body: 'name=Bo+b&x=1', headers: { host: 'h', 'content-type': 'application/x-www-form-urlencoded' } }, true],
    ['bodyPatterns all must match', { bodyPatterns: [{ contains: 'a' }, { matchesJsonPath: '$.a' }] }, { body: '{"a":1}' }, true],
    ['bodyPatterns one misses', { bodyPatterns: [{ contains: 'a' }, { matchesJsonPath: '$.b' }] }, { body: '{"a":1}' }, false],
    ['binaryEqualTo on the body', { bodyPatterns: [{ binaryEqualTo: Buffer.from([0, 1, 2]).toString('base64') }] }, { body: Buffer.from([0, 1, 2]) }, true],
    ['basicAuthCredentials', { basicAuthCredentials: { username: 'u', password: 'p' } }, { headers: { host: 'h', authorization: `Basic ${Buffer.from('u:p').toString('base64')}` } }, true],
    ['basicAuthCredentials with a lower-case scheme', { basicAuthCredentials: { username: 'u', password: 'p' } }, { headers: { host: 'h', authorization: `basic ${Buffer.from('u:p').toString('base64')}` } }, true],
    ['basicAuthCredentials with other credentials', { basicAuthCredentials: { username: 'u', password: 'p' } }, { headers: { host: 'h', authorization: `Basic ${Buffer.from('u:P').toString('base64')}` } }, false],
    ['wrong basicAuthCredentials', { basicAuthCredentials: { username: 'u', password: 'p' } }, { headers: { host: 'h', authorization: `Basic ${Buffer.from('u:x').toString('base64')}` } }, false],
    ['host equalTo', { host: { equalTo: 'api.local' } }, {}, true],
    ['host miss', { host: { equalTo: 'other.local' } }, {}, false],
    ['port', { port: 8080 }, {}, true],
    ['port miss', { port: 9999 }, {}, false],
    ['scheme', { scheme: 'http' }, {}, true],
    ['scheme miss', { scheme: 'https' }, {}, false],
  ])('%s', (_name, pattern, raw, exact) => {
    expect(isExact(pattern, raw)).toBe(exact);
  });

  it('returns path parameters of a urlPathTemplate match', () => {
    const result = matchRequestPattern({ urlPathTemplate: '/things/{id}' }, request());
    expect(result.pathParameters).toEqual({ id: '7' });
  });

  it('weights the URL above a header, so the URL-only miss is further away', () => {
    const urlMiss = matchRequestPattern({ urlPath: '/zzzzzz/9', headers: { Accept: { equalTo: 'application/json' } } }, request());
    const headerMiss = matchRequestPattern({ urlPath: '/things/7', headers: { Accept: { equalTo: 'text/html' } } }, request());
    expect(headerMiss.distance).toBeLessThan(urlMiss.distance);
  });

  it('lists one diff line per compared field with matched flags', () => {
    const result = matchRequestPattern({ method: 'POST', urlPath: '/things/7', headers: { Accept: { equalTo: 'text/html' } } }, request());
    expect(result.diffs).toEqual([
      { field: 'HTTP method', expected: 'POST', actual: 'GET', matched: false },
      { field: 'URL', expected: '[path] /things/7', actual: '/things/7', matched: true },
      { field: 'Header: Accept', expected: 'text/html', actual: 'application/json', matched: false },
    ]);
  });

  it('accepts a compiled pattern and gives the same answer', () => {
    const pattern: RequestPattern = { method: 'GET', urlPathPattern: '/things/.*', queryParameters: { page: { equalTo: '2' } } };
    expect(matchRequestPattern(compileRequestPattern(pattern), request()).isExactMatch).toBe(true);
  });

  it('stops at the first difference with exactOnly and builds no diffs', () => {
    const result = matchRequestPattern({ method: 'POST', urlPath: '/nope' }, request(), { exactOnly: true });
    expect(result).toEqual({ isExactMatch: false, distance: 1, diffs: [] });
    const hit = matchRequestPattern({ method: 'GET', urlPath: '/things/7' }, request(), { exactOnly: true });
    expect(hit).toEqual({ isExactMatch: true, distance: 0, diffs: [] });
  });

  it('throws a PatternError for an invalid raw pattern', () => {
    expect(() => matchRequestPattern({ urlPattern: '(' } as RequestPattern, request())).toThrow(/invalid regex/);
  });
});
