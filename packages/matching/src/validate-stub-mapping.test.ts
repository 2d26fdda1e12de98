import { validateContentPattern, validateRequestPattern, validateStubMapping } from './validate-stub-mapping';

const valid = { request: { method: 'GET', urlPath: '/a' }, response: { status: 200, body: 'ok' } };

function errorsOf(json: unknown) {
  const result = validateStubMapping(json);
  if (result.ok) throw new Error('expected a validation failure');
  return result.errors;
}

describe('validateStubMapping', () => {
  it('accepts a valid stub and assigns the same new UUID to id and uuid', () => {
    const result = validateStubMapping(valid);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.stub.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.stub.uuid).toBe(result.stub.id);
    expect(result.compiled.url.kind).toBe('urlPath');
  });

  it.each([
    ['id', { id: 'A0A0A0A0-0000-4000-8000-000000000001' }],
    ['uuid', { uuid: 'a0a0a0a0-0000-4000-8000-000000000001' }],
  ])('normalises a given %s into both fields', (_key, extra) => {
    const result = validateStubMapping({ ...valid, ...extra });
    expect(result.ok && [result.stub.id, result.stub.uuid]).toEqual(['a0a0a0a0-0000-4000-8000-000000000001', 'a0a0a0a0-0000-4000-8000-000000000001']);
  });

  it('defaults a missing response to status 200', () => {
    const result = validateStubMapping({ request: { urlPath: '/a' } });
    expect(result.ok && result.stub.response).toEqual({ status: 200 });
  });

  it('keeps scenario, metadata and priority fields', () => {
    const stub = { ...valid, priority: 1, scenarioName: 's', requiredScenarioState: 'Started', newScenarioState: 'two', metadata: { tag: 'x' }, persistent: true, name: 'n' };
    const result = validateStubMapping(stub);
    expect(result.ok && result.stub).toMatchObject(stub);
  });

  it.each<[string, unknown, string, RegExp]>([
    ['a non-object', 'stub', '', /JSON object/],
    ['an unknown top-level field', { ...valid, requests: {} }, 'requests', /unrecognised field 'requests'/],
    ['an unknown request field', { ...valid, request: { urlPath: '/a', queryParams: {} } }, 'request.queryParams', /unrecognised field/],
    ['an unknown response field', { ...valid, response: { status: 200, jsonbody: {} } }, 'response.jsonbody', /unrecognised field/],
    ['a missing request', { response: { status: 200 } }, 'request', /required/],
    ['a request that is not an object', { request: 'GET /' }, 'request', /must be an object/],
    ['a bad id', { ...valid, id: 'not-a-uuid' }, 'id', /UUID/],
    ['different id and uuid', { ...valid, id: 'a0a0a0a0-0000-4000-8000-000000000001', uuid: 'a0a0a0a0-0000-4000-8000-000000000002' }, 'uuid', /same/],
    ['a negative priority', { ...valid, priority: -1 }, 'priority', />= 1/],
    ['a zero priority', { ...valid, priority: 0 }, 'priority', />= 1/],
    ['a fractional priority', { ...valid, priority: 1.5 }, 'priority', /integer/],
    ['a non-boolean persistent', { ...valid, persistent: 'yes' }, 'persistent', /boolean/],
    ['metadata that is not an object', { ...valid, metadata: [] }, 'metadata', /object/],
    ['scenario states without a scenario', { ...valid, requiredScenarioState: 'x' }, 'scenarioName', /scenarioName/],
    ['two URL matchers', { ...valid, request: { url: '/a', urlPath: '/a' } }, 'request.urlPath', /only one URL matcher/],
    ['a non-string url', { ...valid, request: { url: 5 } }, 'request.url', /must be a string/],
    ['an invalid urlPattern', { ...valid, request: { urlPattern: '/a(' } }, 'request.urlPattern', /invalid regex/],
    ['a catastrophic urlPattern', { ...valid, request: { urlPattern: '^/(a+)+$' } }, 'request.urlPattern', /catastrophically/],
    ['pathParameters without urlPathTemplate', { ...valid, request: { urlPath: '/a', pathParameters: { id: { equalTo: '1' } } } }, 'request.pathParameters', /only be used with urlPathTemplate/],
    ['a pathParameter the template lacks', { ...valid, request: { urlPathTemplate: '/a/{id}', pathParameters: { other: { equalTo: '1' } } } }, 'request.pathParameters.other', /no parameter/],
    ['an unknown operator in a header', { ...valid, request: { urlPath: '/a', headers: { Accept: { equalsTo: 'x' } } } }, 'request.headers.Accept', /unknown match operator 'equalsTo'/],
    ['a bad regex in a query parameter', { ...valid, request: { urlPath: '/a', queryParameters: { q: { matches: '[' } } } }, 'request.queryParameters.q.matches', /invalid regex/],
    ['bodyPatterns that is not an array', { ...valid, request: { urlPath: '/a', bodyPatterns: { equalTo: 'x' } } }, 'request.bodyPatterns', /array/],
    ['a bad body pattern', { ...valid, request: { urlPath: '/a', bodyPatterns: [{ equalTo: 'x' }, { matchesJsonPath: 'a' }] } }, 'request.bodyPatterns.1.matchesJsonPath', /must start with/],
    ['a bad method', { ...valid, request: { method: 'GET POST' } }, 'request.method', /HTTP method/],
    ['bad basicAuthCredentials', { ...valid, request: { basicAuthCredentials: { username: 'u' } } }, 'request.basicAuthCredentials', /username/],
    ['a bad port', { ...valid, request: { port: 70000 } }, 'request.port', /between 1 and 65535/],
    ['a bad scheme', { ...valid, request: { scheme: 'ftp' } }, 'request.scheme', /http/],
    ['customMatcher', { ...valid, request: { customMatcher: { name: 'x' } } }, 'request.customMatcher', /not supported/],
    ['a bad status', { ...valid, response: { status: 1000 } }, 'response.status', /HTTP status/],
    ['two bodies', { ...valid, response: { body: 'a', jsonBody: {} } }, 'response.jsonBody', /only one of/],
    ['a non-string body', { ...valid, response: { body: { a: 1 } } }, 'response.body', /jsonBody/],
    ['bodyFileName with ..', { ...valid, response: { bodyFileName: '../../etc/passwd' } }, 'response.bodyFileName', /relative path/],
    ['an absolute bodyFileName', { ...valid, response: { bodyFileName: '/etc/passwd' } }, 'response.bodyFileName', /relative path/],
    ['a Windows bodyFileName', { ...valid, response: { bodyFileName: 'C:\\x' } }, 'response.bodyFileName', /relative path/],
    ['a nested .. in bodyFileName', { ...valid, response: { bodyFileName: 'a/../../b' } }, 'response.bodyFileName', /relative path/],
    ['an unknown fault', { ...valid, response: { fault: 'BOOM' } }, 'response.fault', /CONNECTION_RESET_BY_PEER/],
    ['a negative fixed delay', { ...valid, response: { fixedDelayMilliseconds: -5 } }, 'response.fixedDelayMilliseconds', /non-negative/],
    ['an unknown delay distribution', { ...valid, response: { delayDistribution: { type: 'gauss' } } }, 'response.delayDistribution.type', /lognormal/],
    ['a bad uniform distribution', { ...valid, response: { delayDistribution: { type: 'uniform', lower: 5, upper: 1 } } }, 'response.delayDistribution.lower', /exceed/],
    ['a bad chunkedDribbleDelay', { ...valid, response: { chunkedDribbleDelay: { numberOfChunks: 0, totalDuration: 10 } } }, 'response.chunkedDribbleDelay', /numberOfChunks/],
    ['a non-URL proxyBaseUrl', { ...valid, response: { proxyBaseUrl: 'localhost' } }, 'response.proxyBaseUrl', /http/],
    ['transformers that are not names', { ...valid, response: { transformers: 'response-template' } }, 'response.transformers', /array/],
    ['a header value that is an object', { ...valid, response: { headers: { A: { b: 1 } } } }, 'response.headers.A', /string/],
  ])('rejects %s', (_name, json, path, message) => {
    const errors = errorsOf(json);
    const error = errors.find((candidate) => candidate.path === path);
    expect(error).toBeDefined();
    expect(error?.message).toMatch(message);
  });

  it('reports every independent problem, not only the first', () => {
    const errors = errorsOf({ extra: 1, priority: 0, request: { urlPattern: '(', foo: 1 }, response: { fault: 'x' } });
    expect(errors.map((error) => error.path).sort()).toEqual(['extra', 'priority', 'request.foo', 'request.urlPattern', 'response.fault']);
  });
});

describe('validateRequestPattern', () => {
  it('accepts a pattern and returns it compiled', () => {
    const result = validateRequestPattern({ method: 'GET', urlPathPattern: '/a/.*' });
    expect(result.ok && result.compiled.url.kind).toBe('urlPathPattern');
  });

  it('reports paths relative to the pattern', () => {
    const result = validateRequestPattern({ urlPattern: '(a*)*', nope: true });
    expect(result.ok ? [] : result.errors.map((error) => error.path).sort()).toEqual(['nope', 'urlPattern']);
  });
});

describe('validateContentPattern', () => {
  it('accepts a metadata matcher', () => {
    const result = validateContentPattern({ matchesJsonPath: { expression: '$.tag', equalTo: 'x' } });
    expect(result.ok && result.pattern.distanceJson?.({ tag: 'x' })).toBe(0);
  });

  it('rejects an unknown operator', () => {
    expect(validateContentPattern({ nope: 1 })).toEqual({ ok: false, errors: [{ path: '', message: expect.stringMatching(/unknown match operator/) }] });
  });
});
