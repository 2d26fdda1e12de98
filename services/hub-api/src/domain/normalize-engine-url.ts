/**
 * One spelling per engine URL, so registering the same engine twice finds the existing entry:
 * lower-case scheme and host (URL does that), default port dropped, no trailing slash, no query or
 * fragment (an engine URL is a base, `/__admin` is appended to it).
 */
export function normalizeEngineUrl(raw: string): string {
  const url = new URL(raw);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}
