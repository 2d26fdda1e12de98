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
    ['a whole text body', 1024, ['grüße', ' €'], 'text/plain', 'grüße €'],
    ['a text body cut inside a character', 4, ['abc€'], 'text/plain', 'abc'],
    ['a binary body', 64, [Buffer.from([0, 1, 2])], 'application/octet-stream', undefined],
  ])('keeps the UTF-8 bytes of the captured text for the publisher: %s', (_name, maxBytes, chunks, contentType, text) => {
    const r = record(maxBytes as number, ...(chunks as (Buffer | string)[]));
    const captured = r.toCapturedBody(contentType as string)!;
    expect(r.textBytes?.toString('utf8')).toBe(text);
    if (text !== undefined) expect(captured.data).toBe(text);
  });
});
