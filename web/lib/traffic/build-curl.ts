import { writtenTarget, type CapturedBody, type Headers } from '@mockyard/contracts';
import { listHeaders } from './header-value';

export type CurlInput = { method: string; url: string; headers?: Headers | null; body?: CapturedBody | null };

/** Headers curl sets itself or that would be wrong when replayed. */
const SKIPPED_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'accept-encoding']);

/** A POSIX-shell curl command that replays a logged request. */
export function buildCurl(request: CurlInput): string {
  const parts = ['curl'];
  const method = request.method.toUpperCase();
  const hasBody = Boolean(request.body && request.body.data);
  if (method !== 'GET' || hasBody) parts.push('-X', method);
  // the URL as it was sent: curl would otherwise squash dot segments and read {}/[] as its URL globs
  const path = (writtenTarget(request.url) ?? request.url).split('?')[0];
  if (/(^|\/)\.\.?(\/|$)/.test(path)) parts.push('--path-as-is');
  if (/[[\]{}]/.test(request.url)) parts.push('--globoff');
  parts.push(quoteShell(request.url));
  for (const [name, value] of listHeaders(request.headers)) {
    if (SKIPPED_HEADERS.has(name.toLowerCase())) continue;
    parts.push('-H', quoteShell(`${name}: ${value}`));
  }
  if (request.body && request.body.data) {
    if (request.body.encoding === 'base64') {
      parts.unshift(`printf %s ${quoteShell(request.body.data)} | base64 -d |`);
      parts.push('--data-binary', '@-');
    } else {
      parts.push('--data-raw', quoteShell(request.body.data));
    }
    if (request.body.truncated) parts.push('# body was truncated when captured');
  }
  return parts.join(' ');
}

/** Single-quotes a string for sh: ' becomes '\''. */
export function quoteShell(value: string): string {
  if (/^[A-Za-z0-9_./:=@%+-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
