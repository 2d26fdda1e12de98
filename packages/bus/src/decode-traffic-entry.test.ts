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
const withBodies = { ...event, request: { headers: {}, body: { encoding: 'utf8', data: '', size: 5, truncated: false } }, response: { status: 200, headers: {}, body: { encoding: 'utf8', data: '', size: 7, truncated: false } } };

describe('decodeTrafficEntry', () => {
  it('decodes the event field of a well-formed entry', () => {
    const decoded = decodeTrafficEntry(['event', JSON.stringify(event)]);
    expect(decoded).toEqual([expect.objectContaining({ ok: true, event: expect.objectContaining({ id: event.id, method: 'GET' }) })]);
  });

  it('puts bodies sent as their own fields back into the event', () => {
    const [decoded] = decodeTrafficEntry(['event', JSON.stringify(withBodies), 'request-body', '{"a":1}', 'response-body', 'a "b"\n']);
    expect(decoded).toMatchObject({ ok: true, event: { request: { body: { data: '{"a":1}' } }, response: { body: { data: 'a "b"\n' } } } });
    expect(decoded.bodyFields).toEqual(['request-body', '{"a":1}', 'response-body', 'a "b"\n']);
  });

  it('decodes every event of an entry that carries a batch, each with the body fields that follow it', () => {
    const second = { ...withBodies, id: '1b7f4f5e-7c1a-4f4e-9a53-2f7f0a1b2c3d' };
    const third = { ...event, id: '2b7f4f5e-7c1a-4f4e-9a53-2f7f0a1b2c3d' };
    const decoded = decodeTrafficEntry(['event', JSON.stringify(event), 'event', JSON.stringify(second), 'response-body', 'resp', 'event', JSON.stringify(third)]);
    expect(decoded.map((d) => d.ok && d.event.id)).toEqual([event.id, second.id, third.id]);
    expect(decoded.map((d) => d.bodyFields)).toEqual([[], ['response-body', 'resp'], []]);
    expect(decoded[1]).toMatchObject({ ok: true, event: { request: { body: { data: '' } }, response: { body: { data: 'resp' } } } });
  });

  it('fails only the bad events of a batch entry, keeping each one raw', () => {
    const decoded = decodeTrafficEntry(['event', '{nope', 'event', JSON.stringify(event), 'event', JSON.stringify(event), 'request-body', 'x']);
    expect(decoded.map((d) => d.ok)).toEqual([false, true, false]);
    expect(decoded[0]).toMatchObject({ raw: '{nope', reason: expect.stringMatching(/invalid JSON/) });
    expect(decoded[2]).toMatchObject({ bodyFields: ['request-body', 'x'], reason: expect.stringMatching(/field "request-body" given but the event has no request body/) });
  });

  it.each([
    ['a body field for an event without that body', ['event', JSON.stringify(event), 'response-body', 'x'], /field "response-body" given but the event has no response body/],
    ['a deleted entry', null, /deleted/],
    ['an entry without the event field', ['payload', '{}'], /missing field "event" \(fields: payload\)/],
    ['an entry with only body fields', ['request-body', '{}'], /missing field "event" \(fields: request-body\)/],
    ['malformed JSON', ['event', '{nope'], /invalid JSON/],
    ['JSON that is not a TrafficEvent', ['event', JSON.stringify({ ...event, id: 'x' })], /not a TrafficEvent: id:/],
  ])('rejects %s with a reason', (_name, fields, reason) => {
    const decoded = decodeTrafficEntry(fields as string[] | null);
    expect(decoded).toHaveLength(1);
    expect(decoded[0].ok).toBe(false);
    expect(!decoded[0].ok && decoded[0].reason).toMatch(reason);
  });
});
