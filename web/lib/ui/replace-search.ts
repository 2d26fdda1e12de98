/**
 * Replaces the page's query string without a server round-trip. Filters, the open exchange and the chosen
 * engine are client state kept in the URL (so a reload or a shared link restores them); `router.replace`
 * would fetch the page's server payload again for each change and update the address only once that
 * arrives. Next's router picks up native `history.replaceState` calls, so `useSearchParams` still follows.
 */
export function replaceSearch(pathname: string, search: URLSearchParams | string): void {
  const query = search.toString();
  window.history.replaceState(null, '', query ? `${pathname}?${query}` : pathname);
}

/** `?engine=<id>` (or no query) on the current page. */
export function replaceEngineParam(pathname: string, engineId: string | undefined): void {
  replaceSearch(pathname, engineId ? new URLSearchParams({ engine: engineId }) : '');
}
