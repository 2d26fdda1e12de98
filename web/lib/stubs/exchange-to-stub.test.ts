import { gzipSync } from 'node:zlib';
import { buildStubFromExchange } from './exchange-to-stub';
import { buildStubForUnmatched, explainNearMiss } from './explain-near-miss';
import { describeMethod, filterAndSortStubs, readMappingsFile } from './stub-list';

describe('turning traffic into stubs', () => {
  it('builds a stub from a JSON exchange: exact path, query as equalTo, status, content type, jsonBody', () => {
    const draft = buildStubFromExchange({
      request: { method: 'get', url: 'http://api.test/users/7?expand=orders' },
      response: {
        status: 404,
        headers: { 'content-type': 'application/json', date: 'x', 'Cache-Control': 'no-store' },
        body: { encoding: 'utf8', data: '{"error":"nope"}', size: 16, truncated: false },
      },
    });
    expect(draft).toEqual({
      stub: {
        name: 'GET /users/7',
        priority: 5,
        request: { method: 'GET', urlPath: '/users/7', queryParameters: { expand: { equalTo: 'orders' } } },
        response: { status: 404, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }, jsonBody: { error: 'nope' } },
      },
      warnings: [],
    });
  });

  it('keeps a binary body as base64Body and answers 200 when no response was captured', () => {
    expect(buildStubFromExchange({ request: { method: 'POST', url: '/upload' }, response: { status: 201, body: { encoding: 'base64', data: 'AAE=', size: 2, truncated: false } } }).stub.response)
      .toEqual({ status: 201, base64Body: 'AAE=' });
    expect(buildStubFromExchange({ request: { url: '/x' } }).stub.response).toEqual({ status: 200 });
  });

  it('keeps a compressed body with its Content-Encoding, so the stub answers the bytes the upstream sent', () => {
    const gzipped = gzipSync('{"a":1}').toString('base64');
    const { stub } = buildStubFromExchange({
      request: { url: '/gz' },
      response: { status: 200, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: { encoding: 'base64', data: gzipped, size: 27, truncated: false } },
    });
    expect(stub.response).toEqual({ status: 200, headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, base64Body: gzipped });
  });

  it.each([
    ['text', { encoding: 'utf8' as const, data: '{"cut": "of', size: 40_000, truncated: true }, 11],
    ['bytes', { encoding: 'base64' as const, data: 'AAEC', size: 9_000, truncated: true }, 3],
  ])('warns when the captured body (%s) was truncated: the stub would answer it cut', (_what, body, kept) => {
    const { warnings } = buildStubFromExchange({ request: { url: '/big' }, response: { status: 200, headers: { 'content-type': 'application/json' }, body } });
    expect(warnings).toEqual([expect.stringContaining(`truncated when it was captured: this draft holds only its first ${kept} of ${body.size} bytes`)]);
  });
});

describe('near-misses', () => {
  const request = { method: 'POST', url: '/orders?page=2', headers: { Accept: 'text/html' } };

  it('says what differed: method, URL rule, query parameter, header', () => {
    expect(explainNearMiss(request, {
      method: 'GET', urlPath: '/order', queryParameters: { page: { equalTo: '1' } }, headers: { accept: { contains: 'json' } },
    })).toEqual([
      { field: 'method', expected: 'GET', actual: 'POST' },
      { field: 'urlPath', expected: '/order', actual: '/orders' },
      { field: 'query page', expected: 'equalTo 1', actual: '2' },
      { field: 'header accept', expected: 'contains json', actual: 'text/html' },
    ]);
  });

  it('finds no difference where the rules match (ANY method, regex path, template)', () => {
    expect(explainNearMiss(request, { method: 'ANY', urlPathPattern: '/ord.*' })).toEqual([]);
    expect(explainNearMiss({ method: 'GET', url: '/users/42' }, { urlPathTemplate: '/users/{id}' })).toEqual([]);
  });

  it("reads WireMock 3's method patterns: oneOf and noneOf", () => {
    expect(explainNearMiss(request, { method: { oneOf: ['get', 'PUT'] } })).toEqual([{ field: 'method', expected: 'get | PUT', actual: 'POST' }]);
    expect(explainNearMiss(request, { method: { oneOf: ['GET', 'post'] } })).toEqual([]);
    expect(explainNearMiss(request, { method: { noneOf: ['POST'] } })).toEqual([{ field: 'method', expected: 'not POST', actual: 'POST' }]);
    expect(explainNearMiss(request, { method: { noneOf: ['GET'] } })).toEqual([]);
    // the engine reads only the exact ANY as "every method": "any" is a method named ANY
    expect(explainNearMiss(request, { method: 'any' })).toEqual([{ field: 'method', expected: 'any', actual: 'POST' }]);
  });

  it('builds a stub that matches the request exactly, answering like the nearest stub', () => {
    expect(buildStubForUnmatched(request, { priority: 5, response: { status: 201 } })).toEqual({
      name: 'POST /orders?page=2', priority: 4, request: { method: 'POST', url: '/orders?page=2' }, response: { status: 201 },
    });
  });
});

describe('stub list', () => {
  const stubs = [
    { id: '1', name: 'zeta', priority: 5, request: { method: 'GET', urlPath: '/a' }, response: {} },
    { id: '2', name: 'alpha', request: { method: 'POST', urlPattern: '/b.*' }, response: {} },
    { id: '3', name: 'first', priority: 1, request: { url: '/c' }, response: {} },
    { id: '4', name: 'either', priority: 6, request: { method: { oneOf: ['PUT', 'PATCH'] }, url: '/d' }, response: {} },
  ];

  it('shows and searches method patterns as one line', () => {
    expect(stubs.map((stub) => describeMethod(stub.request.method))).toEqual(['GET', 'POST', 'ANY', 'PUT | PATCH']);
    expect(describeMethod({ noneOf: ['GET'] })).toBe('not GET');
    expect(filterAndSortStubs(stubs, 'patch').map((stub) => stub.id)).toEqual(['4']);
  });

  it('sorts by priority (1 first, missing = 5), then name', () => {
    expect(filterAndSortStubs(stubs, '').map((s) => s.id)).toEqual(['3', '2', '1', '4']);
  });

  it.each([['post', ['2']], ['/c', ['3']], ['ZETA', ['1']], ['any', ['3']]])('finds %s in method, URL or name', (search, ids) => {
    expect(filterAndSortStubs(stubs, search).map((s) => s.id)).toEqual(ids);
  });

  it.each([
    ['{"mappings":[{"request":{},"response":{}}]}', 1],
    ['[{"request":{},"response":{}},{"request":{},"response":{}}]', 2],
    ['{"request":{},"response":{}}', 1],
  ])('reads a mappings file %s', (text, count) => {
    expect(readMappingsFile(text)).toHaveLength(count);
  });

  it('refuses a file that holds no stubs', () => {
    expect(() => readMappingsFile('{"foo":1}')).toThrow(/expected/);
  });
});
