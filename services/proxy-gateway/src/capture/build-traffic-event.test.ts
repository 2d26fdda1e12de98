import { TrafficEventSchema } from '@mockyard/contracts';
import { BodyRecorder } from './body-recorder';
import { buildTrafficEvent, captureBody } from './build-traffic-event';

function recorded(body: string, maxBytes = 1024): BodyRecorder {
  const r = new BodyRecorder(maxBytes);
  r.record(body);
  return r;
}

describe('buildTrafficEvent', () => {
  const base = {
    id: '6c1b4bb4-9d1e-4a43-9b1e-0f2a4f0b8c11',
    startedAt: new Date('2026-01-02T03:04:05.000Z'),
    durationMs: 12.34567,
    source: 'proxy' as const,
    method: 'POST',
    url: 'http://t.test/a',
    redactHeaders: new Set(['authorization', 'set-cookie']),
  };

  it('builds a schema-valid event with redacted headers and captured bodies', () => {
    const event = buildTrafficEvent({
      ...base,
      requestId: 'r-1',
      clientAddress: '127.0.0.1',
      requestHeaders: { 'content-type': 'application/json', authorization: 'Bearer x' },
      requestBody: captureBody(recorded('{"a":1}'), { 'content-type': 'application/json' }),
      response: { status: 201, statusMessage: 'Created', headers: { 'set-cookie': ['s=1'], 'content-type': 'text/plain' }, body: captureBody(recorded('ok'), {}) },
    });
    expect(TrafficEventSchema.parse(event)).toEqual(event);
    expect(event).toMatchObject({
      durationMs: 12.346,
      startedAt: '2026-01-02T03:04:05.000Z',
      request: { headers: { authorization: '[redacted]' }, body: { encoding: 'utf8', data: '{"a":1}', size: 7 } },
      response: { status: 201, headers: { 'set-cookie': ['[redacted]'] }, body: { data: 'ok' } },
    });
  });

  it('records an error and no response when the target never answered', () => {
    const event = buildTrafficEvent({ ...base, requestHeaders: {}, requestBody: captureBody(new BodyRecorder(10), {}), error: 'Target refused' });
    expect(TrafficEventSchema.parse(event)).toEqual(event);
    expect(event.response).toBeUndefined();
    expect(event.request.body).toBeUndefined();
    expect(event.error).toBe('Target refused');
  });

  it('types a captured body by the content type and encoding of its own message', () => {
    expect(captureBody(recorded('{"a":1}'), { 'content-type': 'application/json' })).toMatchObject({ encoding: 'utf8', contentType: 'application/json' });
    expect(captureBody(recorded('{"a":1}'), { 'content-type': 'image/png' })).toMatchObject({ encoding: 'base64', contentType: 'image/png' });
    expect(captureBody(recorded('{"a":1}'), { 'content-type': 'application/json', 'content-encoding': 'gzip' })).toMatchObject({ encoding: 'base64' });
    expect(captureBody(undefined, {})).toBeUndefined();
  });
});
