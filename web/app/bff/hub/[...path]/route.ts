import { forwardWithKey, problemResponse, readSearch, refuseCrossSite } from '../../../../lib/server/forward-request';
import { readUpstreams } from '../../../../lib/server/upstreams';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ path: string[] }> };

/**
 * Forwards /bff/hub/admin/* to the hub's public /hub/admin/* and adds X-Hub-Api-Key: the key from
 * HUB_API_KEY (held server-side), else the one the user entered once (HttpOnly session cookie).
 * Cross-site callers are refused first (see refuseCrossSite): the key must not work for other sites' pages.
 */
async function forwardToHub(request: Request, context: Context): Promise<Response> {
  const { path } = await context.params;
  if (path[0] !== 'admin') return problemResponse(404, 'not-found', 'Not found', 'not a hub admin path: /bff/hub forwards /bff/hub/admin/* only');
  const refused = refuseCrossSite(request);
  if (refused) return refused;
  const { hubUrl, hubApiKey } = readUpstreams();
  const encodedPath = path.map(encodeURIComponent).join('/');
  return forwardWithKey(request, `${hubUrl}/hub/${encodedPath}${readSearch(request)}`, {
    header: 'X-Hub-Api-Key',
    serverKey: hubApiKey,
    service: 'the hub',
    variable: 'HUB_API_KEY',
    setting: "hub-api's hub.security.api-key",
  });
}

export const GET = forwardToHub;
export const POST = forwardToHub;
export const PUT = forwardToHub;
export const PATCH = forwardToHub;
export const DELETE = forwardToHub;
