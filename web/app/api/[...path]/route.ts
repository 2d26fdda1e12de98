import { forwardRequest, readSearch } from '../../../lib/server/forward-request';
import { readUpstreams } from '../../../lib/server/upstreams';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ path: string[] }> };

/**
 * Only used when the dashboard runs alone: behind the gateway /api/* never reaches this app. Forwards to
 * the traffic read API (TRAFFIC_API_URL, default GATEWAY_URL), streaming the live feed through.
 */
async function forwardToTrafficApi(request: Request, context: Context): Promise<Response> {
  const { path } = await context.params;
  const encodedPath = path.map(encodeURIComponent).join('/');
  return forwardRequest(request, `${readUpstreams().trafficApiUrl}/api/${encodedPath}${readSearch(request)}`);
}

export const GET = forwardToTrafficApi;
export const DELETE = forwardToTrafficApi;
