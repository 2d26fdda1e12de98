import { isAscii, isUtf8 } from 'node:buffer';
import type { CapturedBody, TrafficEvent } from '@mockyard/contracts';

/**
 * The UTF-8 bytes of captured text bodies (`event.request.body.data` / `event.response.body.data`), given
 * by a producer that already holds them. Large ones that need no JSON escaping are copied into the
 * event's JSON as they are instead of being escaped by JSON.stringify and encoded again (for a 100 KiB
 * body that was most of the cost of capturing it).
 */
export interface TextBodyBytes {
  request?: Buffer;
  response?: Buffer;
}

/** Below this size escaping is cheaper than checking and splicing. */
const SPLICE_MIN_BYTES = 2048;

/** Bytes a JSON string must escape, most common in text first (so escaped bodies are found quickly). */
const ESCAPED_BYTES = [0x22, 0x0a, 0x5c, 0x0d, 0x09, ...Array.from({ length: 0x20 }, (_, b) => b).filter((b) => b !== 0x0a && b !== 0x0d && b !== 0x09)];

/** Placeholders stringified in place of spliced data; a NUL cannot occur in a header, URL or our strings. */
const REQUEST_MARK = JSON.stringify('\u0000mockyard:request-body\u0000');
const RESPONSE_MARK = JSON.stringify('\u0000mockyard:response-body\u0000');

/**
 * UTF-8 bytes of a JSON text. Pure-ASCII text (the usual case: bodies that are not ASCII are captured as
 * base64) is copied as latin1, which costs a fraction of a UTF-8 encode for large captured bodies.
 */
export function encodeEventJson(json: string): Buffer {
  return Buffer.byteLength(json, 'utf8') === json.length ? Buffer.from(json, 'latin1') : Buffer.from(json, 'utf8');
}

/** True when `bytes` contain a byte JSON must escape inside a string (`"`, `\`, control characters). */
export function needsJsonEscape(bytes: Buffer): boolean {
  // One native memchr per byte value beats any per-byte JavaScript loop by far on large bodies.
  for (const b of ESCAPED_BYTES) if (bytes.indexOf(b) !== -1) return true;
  return false;
}

/**
 * The event's JSON as UTF-8 bytes: `JSON.stringify(event)`, except that the data of a body listed in
 * `text` is copied from those bytes when they can stand in a JSON string unescaped. The result parses to
 * the same event either way.
 */
export function encodeTrafficEventJson(event: TrafficEvent, text?: TextBodyBytes): Buffer {
  const request = spliceable(event.request.body, text?.request);
  const response = spliceable(event.response?.body, text?.response);
  if (!request && !response) return encodeEventJson(JSON.stringify(event));
  const marked: TrafficEvent = {
    ...event,
    request: request ? { ...event.request, body: { ...event.request.body!, data: JSON.parse(REQUEST_MARK) as string } } : event.request,
    ...(event.response ? { response: response ? { ...event.response, body: { ...event.response.body!, data: JSON.parse(RESPONSE_MARK) as string } } : event.response } : {}),
  };
  const json = JSON.stringify(marked);
  const parts: Buffer[] = [];
  let from = 0;
  for (const [mark, bytes] of [
    [REQUEST_MARK, request],
    [RESPONSE_MARK, response],
  ] as const) {
    if (!bytes) continue;
    const at = json.indexOf(mark, from);
    // Defensive: a placeholder that is missing or occurs twice falls back to plain serialisation.
    if (at < 0 || json.indexOf(mark, at + 1) >= 0) return encodeEventJson(JSON.stringify(event));
    parts.push(encodeEventJson(json.slice(from, at + 1)), bytes);
    from = at + mark.length - 1;
  }
  parts.push(encodeEventJson(json.slice(from)));
  return Buffer.concat(parts);
}

/** The bytes to splice for one body, or undefined when it must be escaped as usual. */
function spliceable(body: CapturedBody | undefined, bytes: Buffer | undefined): Buffer | undefined {
  if (!body || !bytes || body.encoding !== 'utf8' || bytes.length < SPLICE_MIN_BYTES) return undefined;
  // The bytes must be the data's UTF-8: cheap checks that catch a mismatched pair.
  const ascii = isAscii(bytes);
  if (ascii ? body.data.length !== bytes.length : !isUtf8(bytes) || body.data.length > bytes.length) return undefined;
  return needsJsonEscape(bytes) ? undefined : bytes;
}
