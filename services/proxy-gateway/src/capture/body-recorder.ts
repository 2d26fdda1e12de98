import { capturedTextBytes, DETACHED_BODY_MIN_BYTES } from '@mockyard/bus';
import type { CapturedBody } from '@mockyard/contracts';

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
    const text = capturedTextBytes(bytes, this.isTruncated, contentType, contentEncoding);
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
