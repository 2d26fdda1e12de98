import { decodeTrafficEntry } from './decode-traffic-entry';

const event = {
  id: '0b7f4f5e-7c1a-4f4e-9a53-2f7f0a1b2c3d',
  startedAt: '2026-11-22T10:00:00.000Z',
  durationMs: 12,
  source: 'proxy',
  method: 'GET',
  url: 'http://example.test/a',
  request: { headers: {} },
};

describe('decodeTrafficEntry', () => {
  it('decodes the event field of a well-formed entry', () => {
    const decoded = decodeTrafficEntry(['event', JSON.stringify(event)]);
    expect(decoded).toMatchObject({ ok: true, event: { id: event.id, method: 'GET' } });
  });

  it('puts bodies sent as their own fields back into the event', () => {
    const withBodies = { ...event, request: { headers: {}, body: { encoding: 'utf8', data: '', size: 5, truncated: false } }, response: { status: 200, headers: {}, body: { encoding: 'utf8', data: '', size: 7, truncated: false } } };
    const decoded = decodeTrafficEntry(['event', JSON.stringify(withBodies), 'request-body', '{"a":1}', 'response-body', 'a "b"\n']);
    expect(decoded).toMatchObject({ ok: true, event: { request: { body: { data: '{"a":1}' } }, response: { body: { data: 'a "b"\n' } } } });
    expect(decoded.bodyFields).toEqual(['request-body', '{"a":1}', 'response-body', 'a "b"\n']);
  });

  it.each([
    ['a body field for an event without that body', ['event', JSON.stringify(event), 'response-body', 'x'], /field "response-body" given but the event has no response body/],
    ['a deleted entry', null, /deleted/],
    ['an entry without the event field', ['payload', '{}'], /missing field "event" \(fields: payload\)/],
    ['malformed JSON', ['event', '{nope'], /invalid JSON/],
    ['JSON that is not a TrafficEvent', ['event', JSON.stringify({ ...event, id: 'x' })], /not a TrafficEvent: id:/],
  ])('rejects %s with a reason', (_name, fields, reason) => {
    const decoded = decodeTrafficEntry(fields as string[] | null);
    expect(decoded.ok).toBe(false);
    expect(!decoded.ok && decoded.reason).toMatch(reason);
  });
});
