/** Headers a browser call may carry upstream; everything else (cookies included) stays here. */
const FORWARDED_REQUEST_HEADERS = ['accept', 'content-type', 'last-event-id', 'x-hub-target-server', 'x-request-id', 'cache-control'];
/** Hop-by-hop or re-encoded headers that must not be copied from the upstream answer. */
const DROPPED_RESPONSE_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-encoding', 'content-length', 'set-cookie']);

/** The key the user typed (one for the hub and the traffic API; the name is older than the second). */
export const SESSION_KEY_COOKIE = 'mockyard_hub_key';

/**
 * Forwards one browser call to an upstream public API and streams the answer back (SSE included).
 * An upstream that cannot be reached answers 502 problem+json naming it, so the page shows "down", not a spinner.
 */
export async function forwardRequest(request: Request, upstreamUrl: string, extraHeaders: Record<string, string> = {}): Promise<Response> {
  const headers = new Headers();
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  for (const [name, value] of Object.entries(extraHeaders)) headers.set(name, value);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  let upstream: Response;
  try {
    upstream = await fetch(upstreamUrl, {
      method: request.method,
      headers,
      body: hasBody ? await request.arrayBuffer() : undefined,
      redirect: 'manual',
      cache: 'no-store',
      signal: request.signal,
    });
  } catch (error) {
    return problemResponse(502, 'bad-gateway', 'Upstream unreachable', `${new URL(upstreamUrl).origin} could not be reached: ${describeFetchFailure(error)}`);
  }
  const responseHeaders = new Headers();
  upstream.headers.forEach((value, name) => {
    if (!DROPPED_RESPONSE_HEADERS.has(name.toLowerCase())) responseHeaders.set(name, value);
  });
  responseHeaders.set('cache-control', upstream.headers.get('cache-control') ?? 'no-store');
  return new Response(upstream.body, { status: upstream.status, statusText: upstream.statusText, headers: responseHeaders });
}

/** An RFC 9457 problem answer from this app's server (`type` is the suffix of https://mockyard.dev/problems/). */
export function problemResponse(status: number, type: string, title: string, detail: string, extra: Record<string, unknown> = {}): Response {
  return Response.json({ type: `https://mockyard.dev/problems/${type}`, title, status, detail, ...extra }, { status, headers: { 'content-type': 'application/problem+json' } });
}

/** How a forwarder authenticates to its service: the header, the key this server holds, and what to name when it is refused. */
export interface ForwardedKey {
  header: string;
  /** HUB_API_KEY / TRAFFIC_API_KEY as read by readUpstreams; undefined when the server holds none. */
  serverKey: string | undefined;
  service: string;
  variable: string;
  setting: string;
}

/**
 * forwardRequest with the service's key in `key.header`: the one this server holds, else the one the user
 * entered (the session cookie), else none. A 401 to the server's own key is the dashboard's misconfiguration,
 * not the user's: passed through it would open the key prompt, whose typed key is never sent while the server
 * holds one. So it becomes a 502 naming the variable to fix.
 */
export async function forwardWithKey(request: Request, upstreamUrl: string, key: ForwardedKey): Promise<Response> {
  const apiKey = key.serverKey ?? readCookie(request, SESSION_KEY_COOKIE);
  const response = await forwardRequest(request, upstreamUrl, apiKey ? { [key.header]: apiKey } : {});
  if (!key.serverKey || response.status !== 401) return response;
  await response.body?.cancel();
  return problemResponse(502, 'bad-gateway', 'Dashboard misconfigured', `${key.service} refused the dashboard's ${key.variable}: set it to ${key.setting}`);
}

/** Why a server-side fetch failed: undici's network error hides the reason in its `cause`. */
export function describeFetchFailure(error: unknown): string {
  return error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
}

/** The query string of the incoming request, with its leading "?" (or ""). */
export function readSearch(request: Request): string {
  return new URL(request.url).search;
}

export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/**
 * The hub and traffic forwarders add keys the browser never sees, so a page on another site must not be able
 * to make a browser send them requests (CSRF). Refused: a cross-site fetch metadata header, an Origin that is not this
 * host, and a state-changing request whose body is not JSON (a form post needs no CORS preflight; JSON does).
 * Returns the problem to answer, or undefined when the request may pass.
 */
export function refuseCrossSite(request: Request): Response | undefined {
  const refuse = (detail: string) => problemResponse(403, 'forbidden', 'Forbidden', detail);
  if (request.headers.get('sec-fetch-site') === 'cross-site') return refuse('cross-site requests to the dashboard forwarder are refused');
  const origin = request.headers.get('origin');
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host');
  if (origin && origin !== 'null' && host) {
    let originHost: string | undefined;
    try {
      originHost = new URL(origin).host;
    } catch {
      originHost = undefined;
    }
    if (originHost !== host) return refuse(`requests from ${origin} are refused: only this dashboard's own pages may call it`);
  } else if (origin === 'null') {
    return refuse('requests from an opaque origin are refused');
  }
  const hasBody = !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(request.method);
  const contentType = request.headers.get('content-type') ?? '';
  if (hasBody && !/^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType)) {
    return refuse('send a JSON body with Content-Type: application/json');
  }
  return undefined;
}
