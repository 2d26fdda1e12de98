import { z } from 'zod';
import { describeFetchFailure, problemResponse, readCookie, refuseCrossSite, SESSION_KEY_COOKIE } from '../../../lib/server/forward-request';
import { readUpstreams } from '../../../lib/server/upstreams';

export const dynamic = 'force-dynamic';

const SaveKeySchema = z.object({ apiKey: z.string().trim().min(1, 'apiKey must not be blank').max(4096) });

/** Whether a hub API key is available: held by the server (HUB_API_KEY) or entered for this session. */
export function GET(request: Request): Response {
  return Response.json({ serverHeldKey: Boolean(readUpstreams().hubApiKey), sessionKey: Boolean(readCookie(request, SESSION_KEY_COOKIE)) });
}

/**
 * Keeps a key the user entered in an HttpOnly, SameSite=Strict session cookie scoped to /bff, once the hub
 * has accepted it: a wrong key is answered here (401, nothing stored) instead of being kept and failing
 * on the next call. Not checked when the server holds HUB_API_KEY, which the forwarder uses instead.
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
  // With a server-held key the typed one is never used (the forwarder prefers HUB_API_KEY): nothing to check.
  const refusedKey = readUpstreams().hubApiKey ? undefined : await checkKeyWithHub(parsed.data.apiKey);
  if (refusedKey) return refusedKey;
  const secure = new URL(request.url).protocol === 'https:' ? '; Secure' : '';
  return new Response(null, {
    status: 204,
    headers: { 'set-cookie': `${SESSION_KEY_COOKIE}=${encodeURIComponent(parsed.data.apiKey)}; Path=/bff; HttpOnly; SameSite=Strict${secure}` },
  });
}

/** Asks the hub for its (key-protected) engine list with the key; a problem response when it is not accepted. */
async function checkKeyWithHub(apiKey: string): Promise<Response | undefined> {
  const { hubUrl } = readUpstreams();
  let status: number;
  try {
    const answer = await fetch(`${hubUrl}/hub/admin/registry/servers`, { headers: { 'x-hub-api-key': apiKey, accept: 'application/json' }, cache: 'no-store', signal: AbortSignal.timeout(10_000) });
    await answer.body?.cancel();
    status = answer.status;
  } catch (error) {
    return problemResponse(502, 'bad-gateway', 'Upstream unreachable', `the key could not be checked: ${hubUrl} could not be reached: ${describeFetchFailure(error)}`);
  }
  if (status === 401 || status === 403) return problemResponse(401, 'unauthorized', 'API key refused', 'the hub did not accept this API key');
  if (status >= 500) return problemResponse(502, 'bad-gateway', 'Hub error', `the key could not be checked: the hub answered ${status}`);
  return undefined;
}

export function DELETE(): Response {
  return new Response(null, { status: 204, headers: { 'set-cookie': `${SESSION_KEY_COOKIE}=; Path=/bff; HttpOnly; SameSite=Strict; Max-Age=0` } });
}
