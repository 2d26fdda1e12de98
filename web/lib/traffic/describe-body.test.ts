import { gzipSync } from 'node:zlib';
import { describeBody, formatHex } from './describe-body';

const utf8 = (data: string, extra: Partial<{ contentType: string; truncated: boolean }> = {}) =>
  ({ encoding: 'utf8' as const, data, size: data.length, truncated: false, ...extra });
const base64 = (bytes: number[], contentType?: string) =>
  ({ encoding: 'base64' as const, data: Buffer.from(bytes).toString('base64'), size: bytes.length, truncated: false, contentType });

describe('body pretty-printing', () => {
  it('shows nothing for an absent or empty body', () => {
    expect(describeBody(null).kind).toBe('empty');
    expect(describeBody(utf8('')).kind).toBe('empty');
  });

  it('parses JSON by content type and indents it', () => {
    const view = describeBody(utf8('{"a":[1,2]}'), 'application/json; charset=utf-8');
    expect(view).toMatchObject({ kind: 'json', value: { a: [1, 2] }, text: '{\n  "a": [\n    1,\n    2\n  ]\n}' });
  });

  it('recognises JSON without a content type and falls back to text when it does not parse', () => {
    expect(describeBody(utf8('[true]')).kind).toBe('json');
    expect(describeBody(utf8('{"cut": "off'), 'application/json')).toMatchObject({ kind: 'text' });
  });

  it('splits a form into fields', () => {
    expect(describeBody(utf8('a=1&b=two+words&a=3'), 'application/x-www-form-urlencoded')).toMatchObject({
      kind: 'form', fields: [['a', '1'], ['b', 'two words'], ['a', '3']],
    });
  });

  it('shows an image inline from its base64 bytes', () => {
    const view = describeBody(base64([0x89, 0x50, 0x4e, 0x47]), 'image/png');
    expect(view).toMatchObject({ kind: 'image', mimeType: 'image/png', dataUrl: 'data:image/png;base64,iVBORw==' });
  });

  it('decodes base64 text bodies and keeps the truncation mark', () => {
    const view = describeBody({ ...base64([...Buffer.from('hello')]), truncated: true }, 'text/plain');
    expect(view).toMatchObject({ kind: 'text', text: 'hello', truncated: true });
  });

  it('shows binary as hex with its size', () => {
    const view = describeBody(base64([0, 1, 2, 255], 'application/octet-stream'));
    expect(view).toMatchObject({ kind: 'binary', size: 4 });
    expect(view.kind === 'binary' && view.hex).toBe(`00000000  ${'00 01 02 ff'.padEnd(47)}  |....|`);
  });

  it.each([
    ['read from base64 bytes', base64([0x63, 0x61, 0x66, 0xe9])],
    // the capture kept bytes that were valid UTF-8 as text; the declared charset reads those same bytes
    ['read again from UTF-8 text', utf8('café')],
  ])('decodes text in its declared charset (%s)', (_how, body) => {
    expect(describeBody(body, 'text/plain; charset=iso-8859-1')).toMatchObject({ kind: 'text', text: body.encoding === 'base64' ? 'café' : 'cafÃ©' });
  });

  it('shows a compressed body decompressed when its bytes were decoded, and says so', () => {
    const gzipped = base64([...gzipSync('{"a":1}')]);
    const view = describeBody(gzipped, 'application/json', { contentEncoding: 'gzip', decodedBytes: new TextEncoder().encode('{"a":1}') });
    expect(view).toMatchObject({ kind: 'json', value: { a: 1 }, rawText: '{"a":1}', decodedFrom: 'gzip', size: gzipped.size });
  });

  it('shows a body the browser cannot decompress as compressed bytes, never as text', () => {
    const view = describeBody(base64([0x1b, 0x02, 0x00]), 'application/json', { contentEncoding: 'br' });
    expect(view).toMatchObject({ kind: 'compressed', contentEncoding: 'br', base64: 'GwIA' });
    expect(view.kind === 'compressed' && view.hex).toContain('1b 02 00');
    expect(describeBody(utf8('plain'), 'text/plain', { contentEncoding: 'identity' })).toMatchObject({ kind: 'text', text: 'plain' });
  });

  it('cuts the hex preview and says how much is left', () => {
    const text = formatHex(new Uint8Array(40), 16);
    expect(text.split('\n')).toHaveLength(2);
    expect(text).toContain('… 24 more bytes');
  });
});
