/** The traffic read API's routes under /api with one segment (the logger's requests, exchanges and stream routes). */
const TOP_LEVEL = new Set(['requests', 'responses', 'exchanges', 'stream']);

/**
 * Whether `path` (the segments after /bff/traffic) names a route of the traffic read API: `requests`,
 * `responses`, `stream`, `exchanges`, `exchanges/har` or `exchanges/<id>`. The forwarder adds the traffic
 * key, so it passes nothing else. A dot segment is refused: the upstream URL would resolve it
 * (`exchanges/..` is `/api/`) to a path this check never saw.
 */
export function isTrafficApiPath(path: readonly string[]): boolean {
  if (path.length === 1) return TOP_LEVEL.has(path[0]);
  return path.length === 2 && path[0] === 'exchanges' && !['', '.', '..'].includes(path[1]);
}
