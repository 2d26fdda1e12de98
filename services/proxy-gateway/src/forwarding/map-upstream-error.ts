import { HttpProblem, OutboundDeniedError, toForbiddenProblem } from '@mockyard/service-kit';

/** Raised by the forwarder when the target sent no response headers within `proxy.timeout-ms`. */
export class UpstreamTimeoutError extends Error {
  readonly code = 'UPSTREAM_TIMEOUT';
  constructor(readonly timeoutMs: number) {
    super(`no response within ${timeoutMs} ms`);
  }
}

/**
 * Raised by the forwarder when the client stopped sending its request body for `proxy.timeout-ms`: the target
 * is waiting for the rest, so this is the client's timeout (408), not the target's (504).
 */
export class ClientBodyTimeoutError extends Error {
  readonly code = 'CLIENT_BODY_TIMEOUT';
  constructor(readonly timeoutMs: number) {
    super(`no request body bytes from the client within ${timeoutMs} ms`);
  }
}

const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'refused the connection',
  ENOTFOUND: 'does not resolve',
  EAI_AGAIN: 'does not resolve (temporary DNS failure)',
  EAI_NODATA: 'does not resolve',
  ECONNRESET: 'closed the connection',
  EPIPE: 'closed the connection',
  EHOSTUNREACH: 'is unreachable',
  ENETUNREACH: 'is unreachable',
  ECONNABORTED: 'aborted the connection',
  UND_ERR_SOCKET: 'closed the connection',
  UND_ERR_HEADERS_OVERFLOW: 'sent response headers over the size limit',
};

/** Maps a failure to reach the target into the problem the client gets: 504 for timeouts, else 502 (408 for a stalled upload). */
export function mapUpstreamError(err: Error & { code?: string }, target: string): HttpProblem {
  if (err instanceof OutboundDeniedError) return toForbiddenProblem(err);
  if (err instanceof ClientBodyTimeoutError) {
    return new HttpProblem(408, 'requestTimeout', `The client sent no part of the request body for ${err.timeoutMs} ms (proxy.timeout-ms); the request to ${target} was abandoned`, { target });
  }
  if (err instanceof UpstreamTimeoutError || err.code === 'ETIMEDOUT' || err.code === 'UND_ERR_CONNECT_TIMEOUT') {
    const what = err instanceof UpstreamTimeoutError ? `did not answer within ${err.timeoutMs} ms` : 'did not accept the connection in time';
    return new HttpProblem(504, 'gatewayTimeout', `Target ${target} ${what}`, { target });
  }
  const reason =
    (err.code && UNREACHABLE[err.code]) ??
    // llhttp's codes (the plain-http client uses its names); undici's parser errors carry no code, only their name
    (err.code?.startsWith('HPE_') || err.name === 'HTTPParserError' ? 'sent an invalid HTTP response' : undefined) ??
    (err.code?.startsWith('ERR_TLS') || /certificate|SSL|TLS/i.test(err.message) ? 'failed the TLS handshake' : undefined);
  const detail = `Target ${target} ${reason ?? 'could not be reached'}${err.code ? ` (${err.code})` : ''}`;
  return HttpProblem.badGateway(detail, { target });
}
