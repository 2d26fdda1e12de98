import type { CapturedBody, Headers } from '@mockyard/contracts';
import type { StoredExchange } from './stored-exchange';

/** HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) shapes we emit. Custom fields start with "_". */
export interface HarNameValue {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    queryString: HarNameValue[];
    postData?: { mimeType: string; text: string; params: HarNameValue[]; _encoding?: 'base64' };
    headersSize: number;
    bodySize: number;
    _truncated?: boolean;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    content: { size: number; mimeType: string; text?: string; encoding?: 'base64'; _truncated?: boolean };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
    _error?: string;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  _id: string;
  _seq: number;
  _source: string;
  /** A CONNECT tunnel: the target as the client named it and the bytes relayed each way (never decrypted). */
  _tunnel?: { target: string; bytesUp: number | null; bytesDown: number | null };
}

export const HAR_CREATOR = { name: 'Mockyard traffic-logger', version: '0.1.0' };

/** Maps one stored exchange to a HAR 1.2 entry (status 0 and `_error` when no response came back). */
export function toHarEntry(x: StoredExchange): HarEntry {
  const time = Math.max(0, x.durationMs ?? 0);
  const requestMime = x.requestBody?.contentType ?? headerValue(x.requestHeaders, 'content-type') ?? 'application/octet-stream';
  const responseMime = x.responseBody?.contentType ?? (x.responseHeaders && headerValue(x.responseHeaders, 'content-type')) ?? 'x-unknown';
  return {
    startedDateTime: x.startedAt.toISOString(),
    time,
    request: {
      method: x.method,
      url: x.source === 'tunnel' ? tunnelUrl(x) : x.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: toHarHeaders(x.requestHeaders),
      queryString: toQueryString(x.url),
      ...(x.requestBody ? { postData: toPostData(x.requestBody, requestMime) } : {}),
      headersSize: -1,
      bodySize: x.requestBody?.size ?? 0,
      ...(x.requestBody?.truncated ? { _truncated: true } : {}),
    },
    response: {
      status: x.status ?? 0,
      statusText: x.statusMessage ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: toHarHeaders(x.responseHeaders ?? {}),
      content: toContent(x.responseBody, responseMime),
      redirectURL: (x.responseHeaders && headerValue(x.responseHeaders, 'location')) ?? '',
      headersSize: -1,
      bodySize: x.status === null ? -1 : (x.responseBody?.size ?? 0),
      ...(x.error ? { _error: x.error } : {}),
    },
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
    _id: x.id,
    _seq: x.seq,
    _source: x.source,
    ...(x.source === 'tunnel' ? { _tunnel: { target: x.url, bytesUp: x.tunnelBytesUp, bytesDown: x.tunnelBytesDown } } : {}),
  };
}

/**
 * HAR wants an absolute URL; a tunnel's target is an authority (`host:port`), which parses as a URL whose scheme
 * is the host. HTTP clients open CONNECT tunnels for https (plain http goes through a proxy in absolute form),
 * so the entry names `https://host:port/` (the WHATWG serialisation: no port for 443) and keeps the target as the
 * client sent it in `_tunnel`.
 */
function tunnelUrl(x: StoredExchange): string {
  const host = x.host.includes(':') && !x.host.startsWith('[') ? `[${x.host}]` : x.host;
  try {
    return new URL(`https://${host}${x.port === null ? '' : `:${x.port}`}/`).href;
  } catch {
    return x.url;
  }
}

export function toHarHeaders(headers: Headers): HarNameValue[] {
  const out: HarNameValue[] = [];
  for (const [name, value] of Object.entries(headers)) {
    for (const v of Array.isArray(value) ? value : [value]) out.push({ name, value: v });
  }
  return out;
}

function toQueryString(url: string): HarNameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function toPostData(body: CapturedBody, mimeType: string): NonNullable<HarEntry['request']['postData']> {
  return { mimeType, text: body.data, params: [], ...(body.encoding === 'base64' ? { _encoding: 'base64' as const } : {}) };
}

function toContent(body: CapturedBody | null, mimeType: string): HarEntry['response']['content'] {
  if (!body) return { size: 0, mimeType };
  return {
    size: body.size,
    mimeType,
    text: body.data,
    ...(body.encoding === 'base64' ? { encoding: 'base64' as const } : {}),
    ...(body.truncated ? { _truncated: true } : {}),
  };
}

function headerValue(headers: Headers, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return Array.isArray(v) ? v[0] : v;
  return undefined;
}
