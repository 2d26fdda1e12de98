import { gzipSync } from 'node:zlib';
import { toMatchableRequest } from '@mockyard/matching';
import { buildRecordedRequest, generateStubs, parseSize } from './record-stubs';
import type { ServeEvent } from './serve-event';

function event(method: string, url: string, response: { status?: number; headers?: Record<string, string>; body?: Buffer | string }, request: { headers?: Record<string, string>; body?: string } = {}): ServeEvent {
  return {
    id: `e-${Math.random()}`,
    request: toMatchableRequest({ method, url, headers: request.headers, body: request.body }),
    loggedDate: Date.now(),
    wasMatched: true,
    responseDefinition: {},
    proxiedTo: 'http://upstream',
    response: { status: response.status ?? 200, headers: response.headers ?? {}, body: Buffer.isBuffer(response.body) ? response.body : Buffer.from(response.body ?? '') },
  };
}

describe('parseSize', () => {
  it.each([
    ['2 kb', 2048],
    ['1.5MB', 1572864],
    ['512', 512],
    [100, 100],
    ['lots', 7],
    [undefined, 7],
  ])('reads %j as %d bytes', (value, expected) => {
    expect(parseSize(value as string | number | undefined, 7)).toBe(expected);
  });
});

describe('buildRecordedRequest', () => {
  it.each([
    ['a JSON body as equalToJson', { 'content-type': 'application/json' }, '{"a":1}', {}, { equalToJson: '{"a":1}', ignoreArrayOrder: true, ignoreExtraElements: true }],
    ['an XML body as equalToXml', { 'content-type': 'text/xml' }, '<a/>', {}, { equalToXml: '<a/>' }],
    ['a text body as equalTo', { 'content-type': 'text/plain' }, 'hi', {}, { equalTo: 'hi', caseInsensitive: false }],
    ['a JSON body as equalTo when asked', { 'content-type': 'application/json' }, '{}', { matcher: 'equalTo' as const }, { equalTo: '{}', caseInsensitive: false }],
  ])('matches %s', (_name, headers, body, requestBodyPattern, expected) => {
    const pattern = buildRecordedRequest(event('POST', '/x', {}, { headers, body }), { requestBodyPattern });
    expect(pattern.bodyPatterns).toEqual([expected]);
  });

  it('captures only the headers named in captureHeaders, case-insensitively when asked', () => {
    const pattern = buildRecordedRequest(event('GET', '/x?q=1', {}, { headers: { Accept: 'text/html', 'X-Other': 'o' } }), { captureHeaders: { Accept: { caseInsensitive: true } } });
    expect(pattern.headers).toEqual({ Accept: { equalTo: 'text/html', caseInsensitive: true } });
  });

  it.each([
    ['/things/1', { url: '/things/1', method: 'GET' }],
    ['/things/1?x=2&x=3&y=', { urlPath: '/things/1', method: 'GET', queryParameters: { x: { hasExactly: [{ equalTo: '2' }, { equalTo: '3' }] }, y: { hasExactly: [{ equalTo: '' }] } } }],
  ])('turns %s into WireMock 3\'s URL matcher', (url, expected) => {
    expect(buildRecordedRequest(event('GET', url, {}), {})).toEqual(expected);
  });
});

describe('generateStubs', () => {
  it('keeps text bodies inline, binary as base64 and drops framing headers', () => {
    const [text, binary] = generateStubs(
      [
        event('GET', '/t', { headers: { 'content-type': 'text/plain', 'content-length': '2', 'x-kept': 'k' }, body: 'hi' }),
        event('GET', '/b', { headers: { 'content-type': 'image/png' }, body: Buffer.from([1, 2, 3]) }),
      ],
      { persist: false },
    );
    expect(text.stub.response).toEqual({ status: 200, headers: { 'content-type': 'text/plain', 'x-kept': 'k' }, body: 'hi' });
    expect(binary.stub.response.base64Body).toBe(Buffer.from([1, 2, 3]).toString('base64'));
  });

  it('moves bodies over the threshold to __files when persisting', () => {
    const [big] = generateStubs([event('GET', '/big', { headers: { 'content-type': 'application/json' }, body: '{"x":"' + 'a'.repeat(100) + '"}' })], {
      extractBodyCriteria: { textSizeThreshold: '50' },
    });
    expect(big.stub.response.bodyFileName).toMatch(/^big-.*\.json$/);
    expect(big.stub.name).toBe('big');
    expect(big.bodyFile?.content.toString()).toContain('aaaa');
    expect(big.stub.persistent).toBe(true);
  });

  it('decodes a gzip body and drops content-encoding', () => {
    const [g] = generateStubs([event('GET', '/g', { headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' }, body: gzipSync('zipped') })], { persist: false });
    expect(g.stub.response).toMatchObject({ body: 'zipped', headers: { 'content-type': 'text/plain' } });
  });

  it.each([
    [true, 3, ['Started', 'scenario-1-r-2', 'scenario-1-r-3']],
    [false, 1, ['none']],
  ])('with repeatsAsScenarios=%s turns three identical requests into %d stub(s)', (repeatsAsScenarios, count, states) => {
    const events = ['1', '2', '3'].map((n) => event('GET', '/r', { body: n }));
    const stubs = generateStubs(events, { repeatsAsScenarios, persist: false });
    expect(stubs).toHaveLength(count);
    expect(stubs.map((s) => s.stub.requiredScenarioState ?? 'none')).toEqual(states);
    expect(stubs[0].stub.response.body).toBe('1');
  });

  it('skips exchanges that ended in a fault', () => {
    const faulted = event('GET', '/f', {});
    faulted.response!.fault = 'EMPTY_RESPONSE';
    expect(generateStubs([faulted], { persist: false })).toEqual([]);
  });
});
