import type { CapturedBody } from '@mockyard/contracts';

export type BodyView =
  | { kind: 'empty' }
  | ({ kind: 'json'; value: unknown; text: string; rawText: string } & BodyFacts)
  | ({ kind: 'form'; fields: Array<[string, string]>; text: string } & BodyFacts)
  | ({ kind: 'text'; text: string } & BodyFacts)
  | ({ kind: 'image'; dataUrl: string; mimeType: string } & BodyFacts)
  | ({ kind: 'binary'; hex: string } & BodyFacts)
  | ({ kind: 'compressed'; contentEncoding: string; hex: string; base64: string } & BodyFacts);

/** `decodedFrom`: the content coding the bytes were decompressed from before they were shown. */
type BodyFacts = { size: number; truncated: boolean; decodedFrom?: string };

export type BodyCoding = {
  /** The message's `Content-Encoding` (`identity` or none: the bytes are the content). */
  contentEncoding?: string;
  /** The decompressed bytes (decompressBody), when the browser could undo that coding. */
  decodedBytes?: Uint8Array;
};

const HEX_PREVIEW_BYTES = 512;
const BASE64_PREVIEW_CHARS = 4096;

/**
 * Decides how to show a captured body from its content type and bytes: JSON parsed (for folding and colour),
 * forms as fields, images inline, other text as text in its declared charset, anything else as a hex preview
 * with its size. A compressed body is shown decompressed when `decodedBytes` are given, else as what it is:
 * compressed bytes (hex and base64).
 */
export function describeBody(body: CapturedBody | null | undefined, contentTypeHeader?: string, coding: BodyCoding = {}): BodyView {
  if (!body || (body.size === 0 && body.data === '')) return { kind: 'empty' };
  const contentType = body.contentType ?? contentTypeHeader ?? '';
  const mimeType = contentType.split(';')[0].trim().toLowerCase();
  const charset = readCharset(contentType);
  const { size, truncated } = body;
  const contentEncoding = readContentCoding(coding.contentEncoding);
  let bytes = body.encoding === 'base64' ? decodeBase64(body.data) : null;
  if (contentEncoding) {
    if (!coding.decodedBytes) {
      const raw = bytes ?? new TextEncoder().encode(body.data);
      return { kind: 'compressed', contentEncoding, hex: formatHex(raw), base64: previewBase64(raw), size, truncated };
    }
    bytes = coding.decodedBytes;
  }
  const facts: BodyFacts = contentEncoding ? { size, truncated, decodedFrom: contentEncoding } : { size, truncated };

  if (mimeType.startsWith('image/') && bytes && !truncated) {
    return { kind: 'image', dataUrl: `data:${mimeType};base64,${contentEncoding ? encodeBase64(bytes) : body.data}`, mimeType, ...facts };
  }
  const text = bytes ? (isProbablyText(bytes, mimeType, charset) ? decodeText(bytes, charset) : null) : reinterpretText(body.data, charset);
  if (text === null) return { kind: 'binary', hex: formatHex(bytes ?? new Uint8Array()), ...facts };

  if (mimeType.includes('json') || (!mimeType && /^\s*[[{]/.test(text))) {
    try {
      const value: unknown = JSON.parse(text);
      return { kind: 'json', value, text: JSON.stringify(value, null, 2), rawText: text, ...facts };
    } catch {
      return { kind: 'text', text, ...facts };
    }
  }
  if (mimeType === 'application/x-www-form-urlencoded') {
    return { kind: 'form', fields: Array.from(new URLSearchParams(text).entries()), text, ...facts };
  }
  return { kind: 'text', text, ...facts };
}

/** The content coding of a `Content-Encoding` value, lower case; undefined for none or `identity`. */
export function readContentCoding(contentEncoding: string | undefined): string | undefined {
  const coding = contentEncoding?.trim().toLowerCase();
  return coding && coding !== 'identity' ? coding : undefined;
}

function readCharset(contentType: string): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  return match ? match[1].toLowerCase() : undefined;
}

function isProbablyText(bytes: Uint8Array, mimeType: string, charset: string | undefined): boolean {
  if (charset || /^text\/|json|xml|javascript|x-www-form-urlencoded|graphql|yaml|csv/.test(mimeType)) return true;
  if (mimeType && mimeType !== 'application/octet-stream') return false;
  const sample = bytes.subarray(0, 512);
  for (const byte of sample) if (byte === 0 || (byte < 9 && byte !== 0)) return false;
  return true;
}

export function decodeBase64(data: string): Uint8Array {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Bytes as text in the declared charset; UTF-8 when none is declared or the browser does not know it. */
function decodeText(bytes: Uint8Array, charset: string | undefined): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(bytes);
}

/**
 * A body the capture kept as text was valid UTF-8 bytes; a charset other than UTF-8 reads those bytes
 * differently (as the browser would have), so they are decoded again in it.
 */
function reinterpretText(text: string, charset: string | undefined): string {
  if (!charset || charset === 'utf-8' || charset === 'utf8') return text;
  return decodeText(new TextEncoder().encode(text), charset);
}

function previewBase64(bytes: Uint8Array): string {
  const text = encodeBase64(bytes.subarray(0, (BASE64_PREVIEW_CHARS / 4) * 3));
  return bytes.length > (BASE64_PREVIEW_CHARS / 4) * 3 ? `${text}…` : text;
}

/** `00000000  de ad be ef …  |....|` lines for the first bytes. */
export function formatHex(bytes: Uint8Array, limit = HEX_PREVIEW_BYTES): string {
  const lines: string[] = [];
  const shown = bytes.subarray(0, limit);
  for (let offset = 0; offset < shown.length; offset += 16) {
    const row = shown.subarray(offset, offset + 16);
    const hex = Array.from(row, (b) => b.toString(16).padStart(2, '0')).join(' ');
    const ascii = Array.from(row, (b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${offset.toString(16).padStart(8, '0')}  ${hex.padEnd(47)}  |${ascii}|`);
  }
  if (bytes.length > limit) lines.push(`… ${bytes.length - limit} more bytes`);
  return lines.join('\n');
}
