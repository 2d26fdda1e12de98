/** The request as the matcher sees it: what arrived on the wire, with header names lower-cased. */
export interface MatchableRequest {
  method: string;
  /** Path and query exactly as received (`/a/b?x=1`). */
  url: string;
  absoluteUrl: string;
  scheme: string;
  host: string;
  port: number;
  /** Header names lower-cased; every value kept, in arrival order. */
  headers: Record<string, string[]>;
  cookies: Record<string, string[]>;
  body: Buffer;
  clientIp?: string;
  /** Optional id (the serve event id) exposed to templates as `request.id`. */
  id?: string;
}

export interface RawRequestInput {
  method: string;
  url: string;
  scheme?: string;
  /** Host header value (`example.com:8080`) or bare host. */
  host?: string;
  port?: number;
  /** Node's IncomingMessage.headers shape or a plain record; names are lower-cased here. */
  headers?: Record<string, string | string[] | undefined>;
  body?: Buffer | string;
  clientIp?: string;
  id?: string;
}

/** Splits a Cookie header (`a=1; b=2`) into name -> values. */
export function parseCookieHeader(values: readonly string[] | undefined): Record<string, string[]> {
  const cookies: Record<string, string[]> = {};
  if (!values) return cookies;
  for (const header of values) {
    for (const part of header.split(';')) {
      const eq = part.indexOf('=');
      if (eq <= 0) continue;
      const name = part.slice(0, eq).trim();
      let value = part.slice(eq + 1).trim();
      if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
      (cookies[name] ??= []).push(value);
    }
  }
  return cookies;
}

/** Builds a MatchableRequest from what an HTTP server hands over (method, url, headers, body). */
export function toMatchableRequest(input: RawRequestInput): MatchableRequest {
  const headers: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(input.headers ?? {})) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    const list = (headers[key] ??= []);
    if (Array.isArray(value)) list.push(...value);
    else list.push(value);
  }
  const scheme = input.scheme ?? 'http';
  const hostHeader = input.host ?? headers['host']?.[0] ?? 'localhost';
  const { host, port: hostPort } = splitHostPort(hostHeader);
  const port = input.port ?? hostPort ?? (scheme === 'https' ? 443 : 80);
  const defaultPort = scheme === 'https' ? 443 : 80;
  const authority = port === defaultPort ? host : `${host}:${port}`;
  const body = input.body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(input.body) ? input.body : Buffer.from(input.body, 'utf8');
  return {
    method: input.method.toUpperCase(),
    url: input.url,
    absoluteUrl: `${scheme}://${authority}${input.url}`,
    scheme,
    host,
    port,
    headers,
    cookies: parseCookieHeader(headers['cookie']),
    body,
    clientIp: input.clientIp,
    id: input.id,
  };
}

function splitHostPort(value: string): { host: string; port?: number } {
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    const rest = value.slice(end + 1);
    return { host: value.slice(0, end + 1), port: rest.startsWith(':') ? Number(rest.slice(1)) || undefined : undefined };
  }
  const colon = value.lastIndexOf(':');
  if (colon > 0 && /^\d+$/.test(value.slice(colon + 1))) return { host: value.slice(0, colon), port: Number(value.slice(colon + 1)) };
  return { host: value };
}
