import { pathAsWritten } from '@mockyard/contracts';
import { HttpProblem } from '@mockyard/service-kit';

/**
 * Reads the target of `/proxy?url=<target>` from the raw query string. The target may be percent-encoded
 * (`url=http%3A%2F%2Fhost%2Fa%3Fb%3D1`) or given as is (`url=http://host/a?b=1&c=2`): /proxy has no other
 * parameter, so when `url=` starts with a plain `http://`/`https://`, everything after it is the target,
 * including any `&`-separated parts.
 */
export function parseProxyTarget(rawQuery: string): ForwardTarget {
  const params = new URLSearchParams(rawQuery);
  if (!params.has('url')) throw missingUrl();
  const plain = /(?:^|&)url=(https?:\/\/.*)$/is.exec(rawQuery);
  // Only the parameters before a plain target count: what follows it is the target's own query.
  const urlParams = plain ? new URLSearchParams(rawQuery.slice(0, plain.index)).getAll('url').length + 1 : params.getAll('url').length;
  if (urlParams > 1) {
    throw HttpProblem.badRequest(`Query parameter url is given ${urlParams} times; /proxy forwards to exactly one target`, [{ path: 'query.url', message: 'must be given once' }]);
  }
  const value = plain ? plain[1] : (params.get('url') ?? '');
  return parseAbsoluteTarget(value, 'url');
}

/** Where one exchange goes. */
export interface ForwardTarget {
  /** The parsed URL: origin, host and port for the connection, the loop check and the outbound policy. */
  url: URL;
  /** The request target sent to it: path and query as the client wrote them (pathAsWritten). */
  path: string;
}

/** The target as logged: origin and the path sent; user-info never (it is a credential, sent as Authorization). */
export function targetHref(target: ForwardTarget): string {
  return `${target.url.origin}${target.path}`;
}

/** An absolute http(s) URL with a host, or a 400 problem naming `what` and why. */
export function parseAbsoluteTarget(value: string, what: string): ForwardTarget {
  if (value.trim() === '') throw missingUrl();
  let target: URL;
  try {
    target = new URL(value);
  } catch {
    throw HttpProblem.badRequest(`Query parameter ${what} is not an absolute URL: ${JSON.stringify(value)}`, [{ path: `query.${what}`, message: 'must be an absolute http or https URL' }]);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw HttpProblem.badRequest(`Query parameter ${what} has the scheme ${target.protocol.slice(0, -1)}; only http and https are proxied`, [
      { path: `query.${what}`, message: 'scheme must be http or https' },
    ]);
  }
  if (!target.hostname) throw HttpProblem.badRequest(`Query parameter ${what} has no host`, [{ path: `query.${what}`, message: 'must name a host' }]);
  return { url: target, path: pathAsWritten(value, target) };
}

function missingUrl(): HttpProblem {
  return HttpProblem.badRequest('Query parameter url is required: /proxy?url=<absolute http(s) URL>', [{ path: 'query.url', message: 'required' }]);
}
