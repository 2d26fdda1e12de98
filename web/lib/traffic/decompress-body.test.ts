import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { decompressBody } from './decompress-body';

const captured = (bytes: Buffer, truncated = false) => ({ encoding: 'base64' as const, data: bytes.toString('base64'), size: bytes.length, truncated });
const text = (bytes: Uint8Array | undefined) => (bytes ? Buffer.from(bytes).toString('utf8') : undefined);

describe('decompressing a captured body', () => {
  const content = Buffer.from(JSON.stringify({ greeting: 'hello', items: Array.from({ length: 50 }, (_, i) => i) }));

  it.each([
    ['gzip', gzipSync(content)],
    ['x-gzip', gzipSync(content)],
    ['GZIP', gzipSync(content)],
    ['deflate', deflateSync(content)],
    ['deflate', deflateRawSync(content)],
  ])('undoes %s', async (coding, bytes) => {
    expect(text(await decompressBody(captured(bytes), coding))).toBe(content.toString('utf8'));
  });

  it('decodes a capture cut by the size cap as far as it goes', async () => {
    const long = Buffer.from(Array.from({ length: 20_000 }, (_, i) => `line ${i}\n`).join(''));
    const gzipped = gzipSync(long);
    const decoded = text(await decompressBody(captured(gzipped.subarray(0, gzipped.length >> 1), true), 'gzip'));
    expect(decoded?.length).toBeGreaterThan(0);
    expect(long.toString('utf8').startsWith(decoded!)).toBe(true);
  });

  it.each([
    ['br, which the browser cannot undo', captured(brotliCompressSync(content)), 'br'],
    ['two codings', captured(gzipSync(gzipSync(content))), 'gzip, gzip'],
    ['bytes that are not gzip', captured(content), 'gzip'],
    ['a body captured as text', { encoding: 'utf8' as const, data: 'x', size: 1, truncated: false }, 'gzip'],
  ])('gives up on %s', async (_what, body, coding) => {
    await expect(decompressBody(body, coding)).resolves.toBeUndefined();
  });
});
