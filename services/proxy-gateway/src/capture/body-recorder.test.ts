import { DETACHED_BODY_MIN_BYTES } from '@mockyard/bus';
import { BodyRecorder } from './body-recorder';

function record(maxBytes: number, ...chunks: (Buffer | string)[]): BodyRecorder {
  const r = new BodyRecorder(maxBytes);
  for (const c of chunks) r.record(c);
  return r;
}

describe('BodyRecorder', () => {
  it('captures nothing for an empty body', () => {
    expect(record(10).toCapturedBody('text/plain')).toBeUndefined();
  });

  it.each([
    ['application/json', '{"a":1}', 'utf8'],
    ['application/vnd.api+json; charset=utf-8', '{"a":1}', 'utf8'],
    ['application/x-www-form-urlencoded', 'a=1&b=2', 'utf8'],
    ['text/html', '<p>héllo</p>', 'utf8'],
    [undefined, 'plain untyped text', 'utf8'],
    ['image/png', 'not really a png', 'base64'],
    ['application/octet-stream', 'bytes', 'base64'],
  ])('captures a %s body as %s', (contentType, body, encoding) => {
    const captured = record(1024, body).toCapturedBody(contentType)!;
    expect(captured.encoding).toBe(encoding);
    const decoded = encoding === 'utf8' ? captured.data : Buffer.from(captured.data, 'base64').toString();
    expect(decoded).toBe(body);
    expect(captured).toMatchObject({ size: Buffer.byteLength(body), truncated: false });
  });

  it('captures binary, invalid UTF-8 and compressed bodies as base64', () => {
    expect(record(64, Buffer.from([0, 1, 2, 255])).toCapturedBody()!.encoding).toBe('base64');
    expect(record(64, Buffer.from([0xc3, 0x28])).toCapturedBody('text/plain')!.encoding).toBe('base64');
    expect(record(64, '{"a":1}').toCapturedBody('application/json', 'gzip')!.encoding).toBe('base64');
  });

  it('keeps the first maxBytes across chunks, marks truncation and counts the full size', () => {
    const captured = record(5, 'abc', 'defg', 'hij').toCapturedBody('text/plain')!;
    expect(captured).toEqual({ encoding: 'utf8', data: 'abcde', size: 10, truncated: true, contentType: 'text/plain' });
  });

  it('drops a multi-byte character cut by the cap instead of turning the text into base64', () => {
    const captured = record(4, 'abc€').toCapturedBody('text/plain')!;
    expect(captured).toMatchObject({ encoding: 'utf8', data: 'abc', truncated: true, size: 6 });
  });

  it.each([
    ['a small text body', 1024, ['grüße', ' €'], 'text/plain', 'grüße €', false],
    ['a text body cut inside a character', 4, ['abc€'], 'text/plain', 'abc', false],
    ['a large text body', 4096, ['grüße'.repeat(500)], 'text/plain', 'grüße'.repeat(500), true],
    ['a large text body cut inside a character', 3001, ['grüße'.repeat(500)], 'text/plain', 'grüße'.repeat(500).slice(0, 2143), true],
  ])('keeps %s as a string, or from DETACHED_BODY_MIN_BYTES on as bytes for the publisher', (_name, maxBytes, chunks, contentType, text, detached) => {
    const r = record(maxBytes as number, ...(chunks as (Buffer | string)[]));
    const captured = r.toCapturedBody(contentType as string)!;
    expect(captured.encoding).toBe('utf8');
    expect(captured.data).toBe(detached ? '' : text);
    expect(r.detachedBytes?.toString('utf8')).toBe(detached ? text : undefined);
    if (detached) expect(r.detachedBytes!.length).toBeGreaterThanOrEqual(DETACHED_BODY_MIN_BYTES);
  });

  it('never detaches a binary body, however large', () => {
    const r = record(8192, Buffer.alloc(4096, 0xff));
    expect(r.toCapturedBody('application/octet-stream')).toMatchObject({ encoding: 'base64', data: Buffer.alloc(4096, 0xff).toString('base64') });
    expect(r.detachedBytes).toBeUndefined();
  });
});
