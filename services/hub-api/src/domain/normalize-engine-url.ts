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

/** This machine's loopback names, one engine whichever is written. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether two normalized engine URLs reach the same engine as written: equal, or equal once a loopback name
 * (`localhost`, `127.0.0.1`, `[::1]`) stands for any other, so `http://localhost:9090` is the local engine
 * at `http://127.0.0.1:9090` and is not registered a second time. Other names are not resolved.
 */
export function isSameEngineUrl(a: string, b: string): boolean {
  if (a === b) return true;
  const [x, y] = [new URL(a), new URL(b)];
  return (
    x.protocol === y.protocol && x.port === y.port && x.pathname === y.pathname && LOOPBACK_HOSTS.has(x.hostname) && LOOPBACK_HOSTS.has(y.hostname)
  );
}
