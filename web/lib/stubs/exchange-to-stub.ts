import type { CapturedBody, Headers } from '@mockyard/contracts';
import { readHeader } from '../traffic/header-value';

export type ExchangeLike = {
  request: { method?: string; url?: string };
  response?: { status?: number | null; headers?: Headers | null; body?: CapturedBody | null } | null;
};

/** Response headers worth replaying from a recorded exchange. */
const KEPT_RESPONSE_HEADERS = ['content-type', 'cache-control', 'location', 'etag', 'set-cookie'];

/**
 * A stub that answers the exchange's request the way its response did: method + exact path, each query
 * parameter as `equalTo`, status, the useful headers and the body (`jsonBody` for JSON, `base64Body` for binary).
 */
export function buildStubFromExchange(exchange: ExchangeLike): Record<string, unknown> {
  const method = (exchange.request.method ?? 'GET').toUpperCase();
  const { path, query } = splitPathAndQuery(exchange.request.url ?? '/');
  const request: Record<string, unknown> = { method, urlPath: path };
  if (query.length > 0) {
    request.queryParameters = Object.fromEntries(query.map(([name, value]) => [name, { equalTo: value }]));
  }
  const response: Record<string, unknown> = { status: exchange.response?.status ?? 200 };
  const headers: Record<string, string> = {};
  for (const name of KEPT_RESPONSE_HEADERS) {
    const value = readHeader(exchange.response?.headers, name);
    if (value) headers[canonicalHeaderName(name)] = value;
  }
  if (Object.keys(headers).length > 0) response.headers = headers;
  Object.assign(response, buildResponseBody(exchange.response?.body, headers['Content-Type']));
  return { name: `${method} ${path}`, priority: 5, request, response };
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
