import type { CapturedBody, TrafficEvent } from '@mockyard/contracts';
import { encodeTrafficEventJson, needsJsonEscape } from './traffic-publisher-json';

function eventWith(requestData?: string, responseData?: string): TrafficEvent {
  const body = (data: string): CapturedBody => ({ encoding: 'utf8', data, size: Buffer.byteLength(data), truncated: false, contentType: 'text/plain' });
  return {
    id: '7d0c7a8e-1d2b-4c1e-9f55-0a4c3f6f2b11',
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1.5,
    source: 'proxy',
    method: 'POST',
    url: 'http://example.test/a?b=1',
    request: { headers: { 'x-note': 'quote " and \\ backslash' }, ...(requestData !== undefined ? { body: body(requestData) } : {}) },
    ...(responseData !== undefined ? { response: { status: 200, headers: { 'content-type': 'text/plain' }, body: body(responseData) } } : {}),
  };
}

const plain = 'mockyard-bench-'.repeat(300);
const nonAscii = 'grüße € '.repeat(400);

describe('needsJsonEscape', () => {
  it.each([
    ['plain ASCII', 'abc def', false],
    ['non-ASCII UTF-8', 'grüße €', false],
    ['a quote', 'a"b', true],
    ['a backslash', 'a\\b', true],
    ['a newline', 'a\nb', true],
    ['a tab', 'a\tb', true],
    ['a NUL', 'a\u0000b', true],
    ['unit separator 0x1f', 'a\u001fb', true],
    ['DEL 0x7f (allowed in JSON)', 'a\u007fb', false],
  ])('%s → %s', (_name, text, expected) => {
    expect(needsJsonEscape(Buffer.from(text))).toBe(expected);
  });
});

describe('encodeTrafficEventJson', () => {
  it.each([
    ['no bodies', undefined, undefined],
    ['a large plain request body', plain, undefined],
    ['a large plain response body', undefined, plain],
    ['both bodies large and plain', plain, plain],
    ['a large non-ASCII body', nonAscii, nonAscii],
    ['a large body that needs escaping', `${plain}"\n`, plain],
    ['small bodies', 'small', 'also small'],
  ])('parses back to the same event: %s', (_name, requestData, responseData) => {
    const event = eventWith(requestData, responseData);
    const text = { request: requestData === undefined ? undefined : Buffer.from(requestData), response: responseData === undefined ? undefined : Buffer.from(responseData) };
    const bytes = encodeTrafficEventJson(event, text);
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(event);
    expect(bytes.equals(Buffer.from(JSON.stringify(event), 'utf8'))).toBe(true);
  });

  it('ignores bytes that do not match the captured text', () => {
    const event = eventWith(plain, plain);
    const bytes = encodeTrafficEventJson(event, { request: Buffer.from(plain.slice(1)), response: Buffer.from(`${plain}x`) });
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(event);
  });

  it('never splices a base64 body', () => {
    const event = eventWith(undefined, plain);
    event.response!.body = { ...event.response!.body!, encoding: 'base64', data: Buffer.from(plain).toString('base64') };
    const bytes = encodeTrafficEventJson(event, { response: Buffer.from(plain) });
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(event);
  });
});
