import type { CapturedBody, TrafficEvent } from '@mockyard/contracts';
import { decodeTrafficEntry } from './decode-traffic-entry';
import { encodeTrafficEvent, inlineTrafficEvent, streamEntryFields, type EncodedTrafficEvent } from './traffic-publisher-json';

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

/** The entry of a batch as Redis hands it to a consumer (every field value a UTF-8 string). */
function asStreamFields(...batch: EncodedTrafficEvent[]): string[] {
  return streamEntryFields(batch).map((f) => f.toString('utf8'));
}

describe('encodeTrafficEvent', () => {
  it.each([
    ['no bodies', undefined, undefined],
    ['a large plain request body', plain, undefined],
    ['a large plain response body', undefined, plain],
    ['both bodies large and plain', plain, plain],
    ['a large non-ASCII body', nonAscii, nonAscii],
    ['large JSON bodies (quotes, backslashes, newlines)', `{"a":"${plain}\\n"}\n`, `[${JSON.stringify(plain)}]`],
    ['small bodies', 'small', 'also small'],
  ])('decodes and inlines back to the same event: %s', (_name, requestData, responseData) => {
    const event = eventWith(requestData, responseData);
    const text = { request: requestData === undefined ? undefined : Buffer.from(requestData), response: responseData === undefined ? undefined : Buffer.from(responseData) };
    const encoded = encodeTrafficEvent(event, text);
    const [decoded] = decodeTrafficEntry(asStreamFields(encoded));
    expect(decoded.ok && decoded.event).toEqual(event);
    expect(JSON.parse(inlineTrafficEvent(encoded).toString('utf8'))).toEqual(event);
    expect(encoded.size).toBe(encoded.json.length + (encoded.requestBody?.length ?? 0) + (encoded.responseBody?.length ?? 0));
  });

  it('carries a batch of events, detached bodies included, in one entry that decodes back to the same events', () => {
    const events = [eventWith(plain, 'small'), eventWith(undefined, nonAscii), eventWith('x', undefined)].map((e, i) => ({ ...e, id: e.id.replace(/.$/, String(i)) }));
    const encoded = events.map((e) => encodeTrafficEvent(e, { request: e.request.body ? Buffer.from(e.request.body.data) : undefined, response: e.response?.body ? Buffer.from(e.response.body.data) : undefined }));
    expect(encoded.filter((e) => e.requestBody || e.responseBody)).toHaveLength(2);
    expect(decodeTrafficEntry(asStreamFields(...encoded)).map((d) => d.ok && d.event)).toEqual(events);
  });

  it('sends large text bodies as their own fields and keeps small ones in the JSON', () => {
    const encoded = encodeTrafficEvent(eventWith(plain, 'small'), { request: Buffer.from(plain), response: Buffer.from('small') });
    expect(encoded.requestBody?.toString()).toBe(plain);
    expect(encoded.responseBody).toBeUndefined();
    const json = JSON.parse(encoded.json.toString()) as TrafficEvent;
    expect(json.request.body?.data).toBe('');
    expect(json.response?.body?.data).toBe('small');
  });

  it('keeps bodies in the JSON when the bytes do not match the captured text', () => {
    const event = eventWith(plain, plain);
    const encoded = encodeTrafficEvent(event, { request: Buffer.from(plain.slice(1)), response: Buffer.from(`${plain}x`) });
    expect(encoded.requestBody ?? encoded.responseBody).toBeUndefined();
    expect(JSON.parse(encoded.json.toString('utf8'))).toEqual(event);
  });

  it('never detaches a base64 body', () => {
    const event = eventWith(undefined, plain);
    event.response!.body = { ...event.response!.body!, encoding: 'base64', data: Buffer.from(plain).toString('base64') };
    const encoded = encodeTrafficEvent(event, { response: Buffer.from(plain) });
    expect(encoded.responseBody).toBeUndefined();
    expect(JSON.parse(encoded.json.toString('utf8'))).toEqual(event);
  });
});
