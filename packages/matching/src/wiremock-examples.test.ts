import { toMatchableRequest, type RawRequestInput } from './matchable-request';
import { matchRequestPattern } from './match-request-pattern';
import { validateStubMapping } from './validate-stub-mapping';

/** Stubs written the way WireMock's documentation writes them: they must validate and match as there. */
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const multipart = (boundary: string) =>
  [`--${boundary}`, 'Content-Disposition: form-data; name="info"', 'Content-Type: application/json; charset=utf-8', '', '{}', `--${boundary}--`, ''].join('\r\n');

const examples: [string, unknown, Partial<RawRequestInput>, Partial<RawRequestInput>][] = [
  [
    'XPath body match',
    { request: { method: 'POST', url: '/with/body', bodyPatterns: [{ matchesXPath: "//todo-item[.='Do the thing']" }] }, response: { status: 201 } },
    { method: 'POST', url: '/with/body', body: '<todo-list><todo-item>Do the thing</todo-item></todo-list>' },
    { method: 'POST', url: '/with/body', body: '<todo-list><todo-item>Other</todo-item></todo-list>' },
  ],
  [
    'the "everything" example',
    {
      request: {
        urlPath: '/everything', method: 'ANY',
        headers: { Accept: { contains: 'xml' } },
        queryParameters: { search_term: { equalTo: 'WireMock' } },
        cookies: { session: { matches: '.*12345.*' } },
        bodyPatterns: [{ contains: 'info' }],
        multipartPatterns: [{ matchingType: 'ANY', headers: { 'Content-Disposition': { contains: 'name="info"' }, 'Content-Type': { contains: 'charset' } }, bodyPatterns: [{ equalToJson: '{}' }] }],
        basicAuthCredentials: { username: 'jeff@example.com', password: 'jeffteenjefftyjeff' },
      },
      response: { status: 200 },
    },
    {
      method: 'PUT', url: '/everything?search_term=WireMock',
      headers: { host: 'h', accept: 'text/xml', cookie: 'session=abc123456', authorization: basic('jeff@example.com', 'jeffteenjefftyjeff'), 'content-type': 'multipart/form-data; boundary=b1' },
      body: multipart('b1'),
    },
    {
      method: 'PUT', url: '/everything?search_term=WireMock',
      headers: { host: 'h', accept: 'text/xml', cookie: 'session=abc', authorization: basic('jeff@example.com', 'x'), 'content-type': 'multipart/form-data; boundary=b1' },
      body: multipart('b1'),
    },
  ],
  [
    'JSONPath with a contains sub-matcher over a deep scan',
    { request: { method: 'POST', urlPath: '/todo', bodyPatterns: [{ matchesJsonPath: { expression: '$..todoItem', contains: 'wash' } }] }, response: { status: 201 } },
    { method: 'POST', url: '/todo', body: '{"things":[{"todoItem":"wash the car"}]}' },
    { method: 'POST', url: '/todo', body: '{"things":[{"todoItem":"buy milk"}]}' },
  ],
  [
    'equalToJson with ignoreExtraElements',
    { request: { method: 'POST', url: '/search', bodyPatterns: [{ equalToJson: { total_results: 4 }, ignoreExtraElements: true }] }, response: { status: 200 } },
    { method: 'POST', url: '/search', body: '{"total_results":4,"results":[]}' },
    { method: 'POST', url: '/search', body: '{"total_results":5}' },
  ],
  [
    'caseInsensitive query parameter and an absent header',
    { request: { method: 'GET', urlPathPattern: '/search/.*', queryParameters: { search_term: { equalTo: 'WireMock', caseInsensitive: true } }, headers: { 'X-Custom-Header': { absent: true } } }, response: { status: 200 } },
    { url: '/search/all?search_term=wiremock' },
    { url: '/search/all?search_term=wiremock', headers: { host: 'h', 'x-custom-header': 'present' } },
  ],
  [
    'urlPathTemplate with pathParameters and or',
    { request: { urlPathTemplate: '/contacts/{contactId}/addresses/{addressId}', method: 'GET', pathParameters: { contactId: { equalTo: '12345' }, addressId: { or: [{ equalTo: '1' }, { equalTo: '2' }] } } }, response: { status: 200 } },
    { url: '/contacts/12345/addresses/2' },
    { url: '/contacts/12345/addresses/3' },
  ],
  [
    'a date header after now minus a year, truncated',
    { request: { method: 'GET', url: '/dates', headers: { 'X-Munged-Date': { after: 'now -1 years', truncateExpected: 'first day of month' } } }, response: { status: 200 } },
    { url: '/dates', headers: { host: 'h', 'x-munged-date': new Date().toISOString() } },
    { url: '/dates', headers: { host: 'h', 'x-munged-date': '2001-01-01T00:00:00Z' } },
  ],
  [
    'a scenario stub with a templated JSON response',
    {
      scenarioName: 'To do list', requiredScenarioState: 'Started', newScenarioState: 'Cancel newspaper item added', priority: 1, name: 'todo', persistent: true,
      metadata: { singleItem: 1234, nested: { thing: 'x' } },
      request: { method: 'GET', url: '/todo/items' },
      response: { status: 200, jsonBody: { items: ['Buy milk'] }, transformers: ['response-template'], headers: { 'Content-Type': 'application/json', 'Set-Cookie': ['a=1', 'b=2'] }, delayDistribution: { type: 'lognormal', median: 80, sigma: 0.4 } },
    },
    { url: '/todo/items' },
    { url: '/todo/items/1' },
  ],
  [
    'a proxy stub',
    { request: { method: 'GET', urlPattern: '/other/service/.*' }, response: { proxyBaseUrl: 'http://otherhost.com', proxyUrlPrefixToRemove: '/other/service', additionalProxyRequestHeaders: { 'User-Agent': 'Mockyard' } } },
    { url: '/other/service/doc/123' },
    { url: '/other/doc/123' },
  ],
  [
    'a fault stub with a fixed delay',
    { request: { method: 'GET', url: '/fault' }, response: { fault: 'MALFORMED_RESPONSE_CHUNK', fixedDelayMilliseconds: 10, chunkedDribbleDelay: { numberOfChunks: 5, totalDuration: 1000 } } },
    { url: '/fault' },
    { method: 'POST', url: '/fault' },
  ],
];

describe("WireMock documentation's stubs", () => {
  it.each(examples)('%s validates and matches as in WireMock', (_name, json, hit, miss) => {
    const validation = validateStubMapping(json);
    if (!validation.ok) throw new Error(JSON.stringify(validation.errors));
    const request = (raw: Partial<RawRequestInput>) => toMatchableRequest({ method: 'GET', url: '/', headers: { host: 'h' }, ...raw });
    expect(matchRequestPattern(validation.compiled, request(hit)).isExactMatch).toBe(true);
    const missed = matchRequestPattern(validation.compiled, request(miss));
    expect(missed.isExactMatch).toBe(false);
    expect(missed.distance).toBeGreaterThan(0);
  });
});
