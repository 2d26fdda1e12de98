import { gzipSync } from 'node:zlib';
import { TrafficEventSchema } from '@mockyard/contracts';
import { toMatchableRequest } from '@mockyard/matching';
import type { ServeEvent } from './serve-event';
import { MAX_CAPTURED_BODY_BYTES, toTrafficEvent } from './to-traffic-event';

function serveEvent(overrides: Partial<ServeEvent> = {}): ServeEvent {
  return {
    id: '3f1c2a4e-8b7d-4c61-9a0e-2f5b6c7d8e9f',
    request: toMatchableRequest({ method: 'POST', url: '/x?y=1', host: 'engine:9090', headers: { 'content-type': 'application/json' }, body: '{"a":1}', clientIp: '127.0.0.1' }),
    loggedDate: Date.parse('2026-01-01T00:00:00Z'),
    wasMatched: true,
    stubMapping: { id: 'stub-1', uuid: 'stub-1', request: {}, response: {} },
    responseDefinition: {},
    response: { status: 201, headers: { 'content-type': 'application/octet-stream' }, body: Buffer.from([0, 1]) },
    timing: { addedDelay: 0, processTime: 0, responseSendTime: 0, serveTime: 3, totalTime: 3 },
    ...overrides,
  };
}

describe('toTrafficEvent', () => {
  it('maps a matched exchange to a valid engine traffic event', () => {
    const event = toTrafficEvent(serveEvent(), 'engine-a');
    expect(TrafficEventSchema.parse(event)).toEqual(event);
    expect(event).toMatchObject({
      source: 'engine',
      engineId: 'engine-a',
      method: 'POST',
      url: 'http://engine:9090/x?y=1',
      durationMs: 3,
      matchedStubId: 'stub-1',
      request: { body: { encoding: 'utf8', data: '{"a":1}', size: 7, truncated: false } },
      response: { status: 201, body: { encoding: 'base64', data: 'AAE=', size: 2 } },
    });
  });

  it.each([
    ['a near-miss summary', { wasMatched: false, stubMapping: undefined, nearMissSummary: 'closest stub s (distance 0.100)' }, { nearMiss: 'closest stub s (distance 0.100)' }],
    ['no stub at all', { wasMatched: false, stubMapping: undefined }, { nearMiss: 'no stub matched' }],
    ['a fault', { response: { status: 200, headers: {}, body: Buffer.alloc(0), fault: 'EMPTY_RESPONSE' } }, { error: 'fault EMPTY_RESPONSE' }],
  ])('describes %s', (_name, overrides, expected) => {
    const event = toTrafficEvent(serveEvent(overrides as Partial<ServeEvent>), 'e');
    expect(TrafficEventSchema.safeParse(event).success).toBe(true);
    expect(event).toMatchObject(expected);
  });

  it('caps a large body and keeps its full size', () => {
    const big = Buffer.alloc(MAX_CAPTURED_BODY_BYTES + 10, 'a');
    const event = toTrafficEvent(serveEvent({ response: { status: 200, headers: { 'content-type': 'text/plain' }, body: big } }), 'e');
    expect(event.response?.body).toMatchObject({ size: big.length, truncated: true });
    expect(event.response?.body?.data).toHaveLength(MAX_CAPTURED_BODY_BYTES);
  });

  it.each([
    ['a gzip JSON body (the stub serves it with Content-Encoding)', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, gzipSync('{"a":1}')],
    ['text-typed bytes that are not UTF-8', { 'content-type': 'text/plain' }, Buffer.from([0x63, 0x61, 0x66, 0xe9])],
    ['an untyped binary body', {}, Buffer.from([0, 1, 2, 0xff])],
  ])('captures %s as base64, byte for byte, as the gateway does', (_name, headers, body) => {
    const event = toTrafficEvent(serveEvent({ response: { status: 200, headers, body } }), 'e');
    expect(event.response?.body).toMatchObject({ encoding: 'base64', size: body.length });
    expect(Buffer.from(event.response!.body!.data, 'base64')).toEqual(body);
  });

  it('captures untyped UTF-8 text as text', () => {
    const event = toTrafficEvent(serveEvent({ response: { status: 200, headers: {}, body: Buffer.from('grüße') } }), 'e');
    expect(event.response?.body).toMatchObject({ encoding: 'utf8', data: 'grüße' });
  });
});
