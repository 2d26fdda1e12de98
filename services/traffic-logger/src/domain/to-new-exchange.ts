import { pathAsWritten, type CapturedBody, type Headers, type TrafficEvent } from '@mockyard/contracts';
import type { NewExchange } from './stored-exchange';

/**
 * Maps a capture event to the row stored for it: URL split into scheme/host/port/path for filtering,
 * strings made storable (PostgreSQL text cannot hold NUL: a text body containing one is kept losslessly
 * as base64, elsewhere NUL becomes U+FFFD).
 */
export function toNewExchange(event: TrafficEvent): NewExchange {
  const target = splitTarget(event);
  return {
    id: event.id,
    startedAt: new Date(event.startedAt),
    durationMs: event.durationMs,
    source: event.source,
    engineId: clean(event.engineId) ?? null,
    clientAddress: clean(event.clientAddress) ?? null,
    correlationId: clean(event.requestId) ?? null,
    method: clean(event.method)!.toUpperCase(),
    url: clean(event.url)!,
    ...target,
    requestHeaders: cleanHeaders(event.request.headers),
    requestBody: cleanBody(event.request.body),
    status: event.response?.status ?? null,
    statusMessage: clean(event.response?.statusMessage) ?? null,
    responseHeaders: event.response ? cleanHeaders(event.response.headers) : null,
    responseBody: cleanBody(event.response?.body),
    error: clean(event.error) ?? null,
    tunnelBytesUp: event.tunnel?.bytesUp ?? null,
    tunnelBytesDown: event.tunnel?.bytesDown ?? null,
    matchedStubId: clean(event.matchedStubId) ?? null,
    nearMiss: clean(event.nearMiss) ?? null,
  };
}

function splitTarget(event: TrafficEvent): Pick<NewExchange, 'scheme' | 'host' | 'port' | 'path'> {
  if (event.tunnel) return { scheme: 'tcp', host: clean(event.tunnel.host)!.toLowerCase(), port: event.tunnel.port, path: '' };
  try {
    const u = new URL(event.url);
    return {
      scheme: u.protocol.replace(/:$/, ''),
      host: clean(u.hostname)!.toLowerCase(),
      port: u.port ? Number(u.port) : null,
      // as sent: the gateway sends the path as written (dot segments kept), and logs it so
      path: clean(pathAsWritten(event.url, u))!,
    };
  } catch {
    // Origin-form (an engine logs "/path?q") or something unparseable: host from the Host header.
    const hostHeader = headerValue(event.request.headers, 'host') ?? '';
    const [host, port] = hostHeader.split(/:(?=\d+$)/);
    return { scheme: 'http', host: clean(host)!.toLowerCase(), port: port ? Number(port) : null, path: clean(event.url)! };
  }
}

function headerValue(headers: Headers, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return Array.isArray(v) ? v[0] : v;
  return undefined;
}

function clean(s: string | undefined): string | undefined {
  return s === undefined ? undefined : s.includes('\u0000') ? s.replace(/\u0000/g, '\uFFFD') : s;
}

function cleanHeaders(headers: Headers): Headers {
  const out: Headers = {};
  for (const [k, v] of Object.entries(headers)) out[clean(k)!] = Array.isArray(v) ? v.map((x) => clean(x)!) : clean(v)!;
  return out;
}

function cleanBody(body: CapturedBody | undefined): CapturedBody | null {
  if (!body) return null;
  if (body.encoding === 'utf8' && body.data.includes('\u0000')) {
    return { ...body, encoding: 'base64', data: Buffer.from(body.data, 'utf8').toString('base64') };
  }
  return { ...body, contentType: clean(body.contentType) };
}
