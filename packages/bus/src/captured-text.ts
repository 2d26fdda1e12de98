import { isUtf8 } from 'node:buffer';

const TEXT_TYPE = /^(text\/|application\/(json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql|yaml|x-yaml|x-ndjson|problem\+json|problem\+xml|csv|sql|xhtml\+xml))|\+(json|xml)\b/i;

/**
 * How every producer of traffic events (the gateway, the engines) decides that a captured body is text: the
 * bytes of its text, a multi-byte character cut by the capture's cap dropped, when it is text by its type (or
 * untyped valid UTF-8 without NULs) and not content-encoded; undefined when it is to be captured as base64
 * (binary, compressed, invalid UTF-8), so no byte is lost to a lossy decode.
 */
export function capturedTextBytes(bytes: Buffer, truncated: boolean, contentType?: string, contentEncoding?: string): Buffer | undefined {
  if (contentEncoding && contentEncoding.trim().toLowerCase() !== 'identity') return undefined;
  if (contentType && !TEXT_TYPE.test(contentType)) return undefined;
  const whole = truncated ? trimIncompleteUtf8(bytes) : bytes;
  if (!contentType && whole.includes(0)) return undefined;
  return isUtf8(whole) ? whole : undefined;
}

/** Drops a multi-byte UTF-8 sequence cut off by the size cap. */
function trimIncompleteUtf8(bytes: Buffer): Buffer {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back];
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? bytes.subarray(0, bytes.length - back) : bytes;
  }
  return bytes;
}
