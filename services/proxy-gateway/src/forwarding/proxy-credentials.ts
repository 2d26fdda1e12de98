import { createKeyMatcher, HttpProblem } from '@mockyard/service-kit';

/** The challenge of a 407: what a client may answer with (curl, browsers and HTTP_PROXY=user:key@ clients send Basic). */
export const PROXY_AUTHENTICATE = 'Basic realm="mockyard", Bearer realm="mockyard"';

/** Judges a request's `Proxy-Authorization`: undefined when it may pass, else the 407 problem to answer. */
export type ProxyCredentialsCheck = (header: string | undefined) => HttpProblem | undefined;

/**
 * `proxy.security.api-key`: /proxy and the forward-proxy port (requests and CONNECT) need the key in
 * `Proxy-Authorization`, as `Basic` with any user name and the key as password (what
 * `HTTP_PROXY=http://any:<key>@host:8888` and `curl -x` send) or as `Bearer <key>`, like mitmproxy's
 * `--proxyauth`. The header is hop-by-hop: it is never forwarded, and capture redacts it. Compared as every key
 * is (service-kit's createKeyMatcher). No key: no check (undefined, nothing on the hot path).
 */
export function createProxyCredentialsCheck(apiKey: string | undefined): ProxyCredentialsCheck | undefined {
  if (apiKey === undefined) return undefined;
  const matches = createKeyMatcher(apiKey, 'proxy.security.api-key');
  const refuse = (detail: string) => new HttpProblem(407, 'unauthorized', detail, { headers: { 'Proxy-Authenticate': PROXY_AUTHENTICATE } });
  return (header) => {
    const given = presentedKey(header);
    if (given === undefined) return refuse('Proxy credentials required: send the key in Proxy-Authorization, as Basic with any user name and the key as password (HTTP_PROXY=http://user:<key>@host:port) or as Bearer <key>');
    if (!matches(given)) return refuse('Proxy credentials are not valid');
    return undefined;
  };
}

function presentedKey(header: string | undefined): string | undefined {
  const match = header ? /^(Basic|Bearer)\s+(.+)$/i.exec(header.trim()) : null;
  if (!match) return undefined;
  if (match[1].toLowerCase() === 'bearer') return match[2];
  const decoded = Buffer.from(match[2], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}
