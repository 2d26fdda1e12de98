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

  it.each([
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
