import { z } from 'zod';
import { describeFetchFailure, problemResponse, readCookie, refuseCrossSite, SESSION_KEY_COOKIE } from '../../../lib/server/forward-request';
import { readUpstreams } from '../../../lib/server/upstreams';

export const dynamic = 'force-dynamic';

const SaveKeySchema = z.object({ apiKey: z.string().trim().min(1, 'apiKey must not be blank').max(4096) });

/**
 * Whether an API key is available: held by the server (HUB_API_KEY: serverHeldKey; TRAFFIC_API_KEY:
 * serverHeldTrafficKey) or entered for this session (one typed key serves both). Never the key itself.
 */
export function GET(request: Request): Response {
  const { hubApiKey, trafficApiKey } = readUpstreams();
  return Response.json({
    serverHeldKey: Boolean(hubApiKey),
    serverHeldTrafficKey: Boolean(trafficApiKey),
    sessionKey: Boolean(readCookie(request, SESSION_KEY_COOKIE)),
  });
}

/**
 * Keeps a key the user entered in an HttpOnly, SameSite=Strict session cookie scoped to /bff, once the
 * services that will be sent it have accepted it: a wrong key is answered here (401 naming the service that
 * refused it, nothing stored) instead of being kept and failing on the next call. A service whose key the
 * server holds is not asked: its forwarder uses the server's key, never the typed one.
 */
export async function POST(request: Request): Promise<Response> {
  const refused = refuseCrossSite(request);
  if (refused) return refused;
  const parsed = SaveKeySchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) {
    return problemResponse(400, 'validation', 'Invalid request', 'apiKey must be a non-blank string', {
      errors: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    });
  }
  // A refusal anywhere stores nothing; a service that cannot be reached does not block a key another one
  // accepted (it is checked when it is used: a refusal then opens the prompt again).
  const checks = keyChecks(parsed.data.apiKey);
  const outcomes: (Response | undefined)[] = [];
  for (const check of checks) outcomes.push(await checkKey(check));
  const refusal = outcomes.find((outcome) => outcome?.status === 401);
  if (refusal) return refusal;
  if (checks.length > 0 && outcomes.every((outcome) => outcome !== undefined)) return outcomes[0]!;
  const secure = new URL(request.url).protocol === 'https:' ? '; Secure' : '';
  return new Response(null, {
    status: 204,
    headers: { 'set-cookie': `${SESSION_KEY_COOKIE}=${encodeURIComponent(parsed.data.apiKey)}; Path=/bff; HttpOnly; SameSite=Strict${secure}` },
  });
}

export function DELETE(): Response {
  return new Response(null, { status: 204, headers: { 'set-cookie': `${SESSION_KEY_COOKIE}=; Path=/bff; HttpOnly; SameSite=Strict; Max-Age=0` } });
}

/** One key-protected call that answers 401/403 to a key the service does not accept. */
type KeyCheck = { service: 'hub' | 'traffic'; name: string; url: string; headers: Record<string, string> };

/** What the typed key would be used for: the hub's admin API and the traffic read API, unless the server holds their key. */
function keyChecks(apiKey: string): KeyCheck[] {
  const { hubUrl, hubApiKey, trafficApiUrl, trafficApiKey } = readUpstreams();
  const checks: KeyCheck[] = [];
  if (!hubApiKey) checks.push({ service: 'hub', name: 'the hub', url: `${hubUrl}/hub/admin/registry/servers`, headers: { 'x-hub-api-key': apiKey } });
  if (!trafficApiKey) checks.push({ service: 'traffic', name: 'the traffic API', url: `${trafficApiUrl}/api/requests?size=1`, headers: { 'x-api-key': apiKey } });
  return checks;
}

/** Asks the service for a (key-protected) resource with the key; undefined when accepted, else the problem (401 refused, 502 not checked). */
async function checkKey({ service, name, url, headers }: KeyCheck): Promise<Response | undefined> {
  let status: number;
  try {
    const answer = await fetch(url, { headers: { ...headers, accept: 'application/json' }, cache: 'no-store', signal: AbortSignal.timeout(10_000) });
    await answer.body?.cancel();
    status = answer.status;
  } catch (error) {
    return problemResponse(502, 'bad-gateway', 'Upstream unreachable', `the key could not be checked: ${new URL(url).origin} could not be reached: ${describeFetchFailure(error)}`, { service });
  }
  if (status === 401 || status === 403) return problemResponse(401, 'unauthorized', 'API key refused', `${name} did not accept this API key`, { service });
  if (status >= 500) return problemResponse(502, 'bad-gateway', `${service === 'hub' ? 'Hub' : 'Traffic API'} error`, `the key could not be checked: ${name} answered ${status}`, { service });
  return undefined;
}
