import { forwardWithKey, problemResponse, readSearch, refuseCrossSite } from '../../../../lib/server/forward-request';
import { isTrafficApiPath } from '../../../../lib/server/traffic-paths';
import { readUpstreams } from '../../../../lib/server/upstreams';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ path: string[] }> };

/**
 * Forwards /bff/traffic/* to the traffic read API's /api/* (TRAFFIC_API_URL, default GATEWAY_URL) and adds
 * X-Api-Key: the key from TRAFFIC_API_KEY (held server-side), else the one the user entered once (HttpOnly
 * session cookie). The browser cannot add it itself: it never sees the key, and EventSource sends no headers
 * of its own, so the live feed comes this way too (forwardRequest streams it, Last-Event-ID passed on).
 * Only the read API's paths pass, and cross-site callers are refused first, as on /bff/hub.
 */
async function forwardToTrafficApi(request: Request, context: Context): Promise<Response> {
  const { path } = await context.params;
  if (!isTrafficApiPath(path)) {
    return problemResponse(404, 'not-found', 'Not found', 'not a traffic API path: /bff/traffic forwards requests, responses, exchanges[/<id>|/har] and stream');
  }
  const refused = refuseCrossSite(request);
  if (refused) return refused;
  const { trafficApiUrl, trafficApiKey } = readUpstreams();
  const encodedPath = path.map(encodeURIComponent).join('/');
  return forwardWithKey(request, `${trafficApiUrl}/api/${encodedPath}${readSearch(request)}`, {
    header: 'X-Api-Key',
    serverKey: trafficApiKey,
    service: 'the traffic API',
    variable: 'TRAFFIC_API_KEY',
    setting: "traffic-logger's traffic.security.api-key",
  });
}

export const GET = forwardToTrafficApi;
export const DELETE = forwardToTrafficApi;
