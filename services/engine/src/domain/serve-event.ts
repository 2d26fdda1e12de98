import type { MatchableRequest, ResponseDefinition, StubMapping } from '@mockyard/matching';

export interface LoggedResponse {
  status: number;
  statusMessage?: string;
  headers: Record<string, string | string[]>;
  body: Buffer;
  fault?: string;
}

export interface ServeTiming {
  addedDelay: number;
  processTime: number;
  responseSendTime: number;
  serveTime: number;
  totalTime: number;
}

/** One request the engine served: what came in, which stub answered (if any) and what went out. */
export interface ServeEvent {
  id: string;
  request: MatchableRequest;
  loggedDate: number;
  wasMatched: boolean;
  stubMapping?: StubMapping;
  responseDefinition: ResponseDefinition;
  response?: LoggedResponse;
  timing?: ServeTiming;
  /** The upstream base URL when the response was proxied. */
  proxiedTo?: string;
  /** For unmatched requests: the closest stub and its distance, one line. */
  nearMissSummary?: string;
}

const TEXT_TYPE = /^(text\/|application\/(.*\+)?(json|xml|javascript|x-www-form-urlencoded)|.*charset=)/i;

/** True when a body with this content type (or none) reads as text. */
export function isTextContentType(contentType: string | undefined): boolean {
  return contentType === undefined || contentType === '' || TEXT_TYPE.test(contentType);
}

function toWireHeaders(headers: Record<string, string[]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, values] of Object.entries(headers)) out[name] = values.length === 1 ? values[0] : values;
  return out;
}

function parseQuery(url: string): Record<string, { key: string; values: string[] }> {
  const q = url.indexOf('?');
  const out: Record<string, { key: string; values: string[] }> = {};
  if (q < 0) return out;
  for (const [key, value] of new URLSearchParams(url.slice(q + 1))) (out[key] ??= { key, values: [] }).values.push(value);
  return out;
}

/** WireMock's LoggedRequest JSON for a request. */
export function toLoggedRequestJson(request: MatchableRequest, loggedDate: number) {
  const contentType = request.headers['content-type']?.[0];
  return {
    url: request.url,
    absoluteUrl: request.absoluteUrl,
    method: request.method,
    clientIp: request.clientIp ?? null,
    headers: toWireHeaders(request.headers),
    cookies: Object.fromEntries(Object.entries(request.cookies).map(([k, v]) => [k, v.length === 1 ? v[0] : v])),
    queryParams: parseQuery(request.url),
    browserProxyRequest: false,
    loggedDate,
    loggedDateString: new Date(loggedDate).toISOString(),
    scheme: request.scheme,
    host: request.host,
    port: request.port,
    protocol: 'HTTP/1.1',
    body: isTextContentType(contentType) ? request.body.toString('utf8') : '',
    bodyAsBase64: request.body.toString('base64'),
  };
}

/** WireMock's ServeEvent JSON. */
export function toServeEventJson(event: ServeEvent) {
  const response = event.response;
  const contentType = response ? headerValue(response.headers, 'content-type') : undefined;
  return {
    id: event.id,
    request: toLoggedRequestJson(event.request, event.loggedDate),
    stubMapping: event.stubMapping ?? null,
    responseDefinition: event.responseDefinition,
    response: response
      ? {
          status: response.status,
          headers: response.headers,
          body: isTextContentType(contentType) ? response.body.toString('utf8') : '',
          bodyAsBase64: response.body.toString('base64'),
          ...(response.fault ? { fault: response.fault } : {}),
        }
      : null,
    wasMatched: event.wasMatched,
    timing: event.timing ?? null,
    subEvents: event.nearMissSummary ? [{ type: 'NEAR_MISS', data: { summary: event.nearMissSummary } }] : [],
  };
}

export function headerValue(headers: Record<string, string | string[]>, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === lower) return Array.isArray(v) ? v[0] : v;
  return undefined;
}
