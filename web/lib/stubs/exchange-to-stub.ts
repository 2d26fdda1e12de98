import type { CapturedBody, Headers } from '@mockyard/contracts';
import { readHeader } from '../traffic/header-value';
import type { StubDraft } from './stub-draft';

export type ExchangeLike = {
  request: { method?: string; url?: string };
  response?: { status?: number | null; headers?: Headers | null; body?: CapturedBody | null } | null;
};

/** Response headers worth replaying from a recorded exchange. */
const KEPT_RESPONSE_HEADERS = ['content-type', 'cache-control', 'location', 'etag', 'set-cookie'];

/**
 * A stub that answers the exchange's request the way its response did: method + exact path, each query
 * parameter as `equalTo`, status, the useful headers and the body (`jsonBody` for JSON, `base64Body` for binary).
 * A compressed body stays compressed, as captured, with its Content-Encoding: the stub answers with the same
 * bytes the upstream sent (decompressing here could not handle a coding the browser cannot undo, `br`).
 * A body cut by the capture's size cap is kept as far as it goes, with a warning: the stub would answer it cut.
 */
export function buildStubFromExchange(exchange: ExchangeLike): StubDraft {
  const method = (exchange.request.method ?? 'GET').toUpperCase();
  const { path, query } = splitPathAndQuery(exchange.request.url ?? '/');
  const request: Record<string, unknown> = { method, urlPath: path };
  if (query.length > 0) {
    request.queryParameters = Object.fromEntries(query.map(([name, value]) => [name, { equalTo: value }]));
  }
  const body = exchange.response?.body;
  const response: Record<string, unknown> = { status: exchange.response?.status ?? 200 };
  const headers: Record<string, string> = {};
  for (const name of KEPT_RESPONSE_HEADERS) {
    const value = readHeader(exchange.response?.headers, name);
    if (value) headers[canonicalHeaderName(name)] = value;
  }
  const contentEncoding = readHeader(exchange.response?.headers, 'content-encoding');
  // The bytes of base64Body are the encoded bytes: without the header a client would read them as the content.
  if (contentEncoding && body?.encoding === 'base64' && body.data) headers['Content-Encoding'] = contentEncoding;
  if (Object.keys(headers).length > 0) response.headers = headers;
  Object.assign(response, buildResponseBody(body, headers['Content-Type']));
  const warnings: string[] = [];
  if (body?.truncated) {
    warnings.push(
      `The response body was truncated when it was captured: this draft holds only its first ${countBodyBytes(body)} of ${body.size} bytes, ` +
        'so the stub would answer with a cut-off body. Replace the body with the whole one before creating the stub.',
    );
  }
  return { stub: { name: `${method} ${path}`, priority: 5, request, response }, warnings };
}

/** How many bytes of the body the capture kept. */
function countBodyBytes(body: CapturedBody): number {
  if (body.encoding === 'base64') return Math.floor((body.data.replace(/=+$/, '').length * 3) / 4);
  return new TextEncoder().encode(body.data).length;
}

function buildResponseBody(body: CapturedBody | null | undefined, contentType?: string): Record<string, unknown> {
  if (!body || !body.data) return {};
  if (body.encoding === 'base64') return { base64Body: body.data };
  if ((contentType ?? body.contentType ?? '').includes('json')) {
    try {
      return { jsonBody: JSON.parse(body.data) };
    } catch {
      return { body: body.data };
    }
  }
  return { body: body.data };
}

export function splitPathAndQuery(url: string): { path: string; query: Array<[string, string]> } {
  try {
    const parsed = new URL(url, 'http://placeholder.invalid');
    return { path: parsed.pathname, query: Array.from(parsed.searchParams.entries()) };
  } catch {
    return { path: url.split('?')[0] || '/', query: [] };
  }
}

function canonicalHeaderName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_m, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`);
}
