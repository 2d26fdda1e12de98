/**
 * `scheme:` and the authority as a WHATWG URL parser reads them for http(s): any run of `/` and `\` after the
 * scheme, then the authority up to the first `/`, `?`, `#` or `\`.
 */
const WRITTEN_AUTHORITY = /^[a-z][a-z\d+.-]*:[/\\]*[^/?#\\]*/i;
/** What an HTTP/1.1 request-target may carry as it is: visible ASCII (undici refuses the rest). */
const WIRE_SAFE = /^[\x21-\x7e]*$/;

/**
 * The path and query of an absolute URL exactly as written in `value` — dot segments, quotes, braces and the
 * writer's own percent-escapes kept, as any HTTP client sends them — given `parsed`, the WHATWG parse of the
 * same `value`. Falls back to the parsed URL's normal form when the written one cannot go on the wire as it is
 * (spaces, non-ASCII, a `\` where the path starts) or would not mean the same path (it normalises to something
 * other than the parsed URL's). The fragment is never part of it.
 *
 * One function for both sides of the capture: the gateway sends this path (and logs `origin + path` as the
 * event's URL), the traffic logger stores the path of that URL with it.
 */
export function pathAsWritten(value: string, parsed: URL): string {
  const normal = `${parsed.pathname}${parsed.search}`;
  const rest = writtenTarget(value);
  if (rest === undefined || rest === normal) return normal;
  if (!rest.startsWith('/') || !WIRE_SAFE.test(rest)) return normal;
  const reparsed = new URL(rest, parsed.origin);
  return `${reparsed.pathname}${reparsed.search}` === normal ? rest : normal;
}

/**
 * What follows `scheme:` and the authority in `value`, as written and unchecked: path and query, the fragment
 * dropped, `/` put before a bare `?query`; undefined when `value` does not start with a scheme.
 */
export function writtenTarget(value: string): string | undefined {
  const authority = WRITTEN_AUTHORITY.exec(value);
  if (!authority) return undefined;
  const rest = value.slice(authority[0].length).split('#')[0];
  return rest.startsWith('?') ? `/${rest}` : rest;
}
