import { isUtf8 } from 'node:buffer';
import { DETACHED_BODY_MIN_BYTES } from '@mockyard/bus';
import type { CapturedBody } from '@mockyard/contracts';

const TEXT_TYPE = /^(text\/|application\/(json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql|yaml|x-yaml|x-ndjson|problem\+json|problem\+xml|csv|sql|xhtml\+xml))|\+(json|xml)\b/i;

/**
 * Keeps the first `maxBytes` of a body that streams past it (the stream itself is never held back) and
 * counts the full size. Turns the kept bytes into a CapturedBody: text as text, anything else (binary,
 * compressed, invalid UTF-8) as base64. A large text body stays bytes (`detachedBytes`, `data: ""`): the
 * publisher sends them as they are (see DetachedBodies), so the body never becomes a string here.
 */
export class BodyRecorder {
  private readonly chunks: Buffer[] = [];
  private keptBytes = 0;
  size = 0;
  /** After toCapturedBody: the bytes of a text body of DETACHED_BODY_MIN_BYTES or more, whose `data` is "". */
  detachedBytes: Buffer | undefined;

  constructor(private readonly maxBytes: number) {}

  /** Records one chunk; cheap enough for the data path (a slice reference, no copy). */
  record(chunk: Buffer | string): void {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.size += buf.length;
    const room = this.maxBytes - this.keptBytes;
    if (room <= 0) return;
    const kept = buf.length <= room ? buf : buf.subarray(0, room);
    this.chunks.push(kept);
    this.keptBytes += kept.length;
  }

  get isTruncated(): boolean {
    return this.size > this.keptBytes;
  }

  /** The captured body, or undefined when the body was empty. */
  toCapturedBody(contentType?: string, contentEncoding?: string): CapturedBody | undefined {
    if (this.size === 0) return undefined;
    const bytes = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.keptBytes);
    const text = textBytes(bytes, this.isTruncated, contentType, contentEncoding);
    this.detachedBytes = text && text.length >= DETACHED_BODY_MIN_BYTES ? text : undefined;
    return {
      encoding: text === undefined ? 'base64' : 'utf8',
      data: text === undefined ? bytes.toString('base64') : this.detachedBytes ? '' : text.toString('utf8'),
      size: this.size,
      truncated: this.isTruncated,
      ...(contentType ? { contentType } : {}),
    };
  }
}

/**
 * The bytes of the body's text when it is text (by type, or untyped valid UTF-8 without NULs), a multi-byte
 * character cut by the cap dropped; undefined when it is to be captured as base64.
 */
function textBytes(bytes: Buffer, truncated: boolean, contentType?: string, contentEncoding?: string): Buffer | undefined {
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
