import type { CapturedBody } from '@mockyard/contracts';

export type BodyView =
  | { kind: 'empty' }
  | { kind: 'json'; value: unknown; text: string; size: number; truncated: boolean }
  | { kind: 'form'; fields: Array<[string, string]>; text: string; size: number; truncated: boolean }
  | { kind: 'text'; text: string; size: number; truncated: boolean }
  | { kind: 'image'; dataUrl: string; mimeType: string; size: number; truncated: boolean }
  | { kind: 'binary'; hex: string; size: number; truncated: boolean };

const HEX_PREVIEW_BYTES = 512;

/**
 * Decides how to show a captured body from its content type and bytes: JSON parsed (for folding and colour),
 * forms as fields, images inline, other text as text, anything else as a hex preview with its size.
 */
export function describeBody(body: CapturedBody | null | undefined, contentTypeHeader?: string): BodyView {
  if (!body || (body.size === 0 && body.data === '')) return { kind: 'empty' };
  const mimeType = (body.contentType ?? contentTypeHeader ?? '').split(';')[0].trim().toLowerCase();
  const { size, truncated } = body;
  const bytes = body.encoding === 'base64' ? decodeBase64(body.data) : null;

  if (mimeType.startsWith('image/') && bytes && !truncated) {
    return { kind: 'image', dataUrl: `data:${mimeType};base64,${body.data}`, mimeType, size, truncated };
  }
  const text = body.encoding === 'utf8' ? body.data : bytes && isProbablyText(bytes, mimeType) ? decodeUtf8(bytes) : null;
  if (text === null) return { kind: 'binary', hex: formatHex(bytes ?? new Uint8Array()), size, truncated };

  if (mimeType.includes('json') || (!mimeType && /^\s*[[{]/.test(text))) {
    try {
      const value: unknown = JSON.parse(text);
      return { kind: 'json', value, text: JSON.stringify(value, null, 2), size, truncated };
    } catch {
      return { kind: 'text', text, size, truncated };
    }
  }
  if (mimeType === 'application/x-www-form-urlencoded') {
    return { kind: 'form', fields: Array.from(new URLSearchParams(text).entries()), text, size, truncated };
  }
  return { kind: 'text', text, size, truncated };
}

function isProbablyText(bytes: Uint8Array, mimeType: string): boolean {
  if (/^text\/|json|xml|javascript|x-www-form-urlencoded|graphql|yaml|csv/.test(mimeType)) return true;
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

function decodeUtf8(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
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
