import type { CapturedBody } from '@mockyard/contracts';
import { decodeBase64 } from './describe-body';

/** Content codings the browser can undo (DecompressionStream); others (br, zstd, several at once) stay compressed. */
const STREAM_FORMATS: Record<string, CompressionFormat[]> = {
  gzip: ['gzip'],
  'x-gzip': ['gzip'],
  // HTTP's deflate is zlib-wrapped, but some servers send it raw
  deflate: ['deflate', 'deflate-raw'],
};

/**
 * The bytes a compressed captured body (`Content-Encoding`) stands for, or undefined when the browser cannot
 * undo that coding or the bytes do not decode. A capture cut by the size cap decodes as far as it goes.
 */
export async function decompressBody(body: CapturedBody, contentEncoding: string): Promise<Uint8Array | undefined> {
  const formats = STREAM_FORMATS[contentEncoding.trim().toLowerCase()];
  // A compressed body captured as text lost its bytes: there is nothing left to decode.
  if (!formats || body.encoding !== 'base64' || typeof DecompressionStream === 'undefined') return undefined;
  const bytes = decodeBase64(body.data);
  for (const format of formats) {
    const decoded = await readAll(new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream(format)));
    if (decoded) return decoded;
  }
  return undefined;
}

/** Everything the stream yields; when it fails part way, what came before (undefined if nothing did). */
async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array | undefined> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
  } catch {
    if (chunks.length === 0) return undefined;
  }
  const joined = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.length;
  }
  return joined;
}
