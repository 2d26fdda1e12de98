import { z } from 'zod';
import { readCookie, refuseCrossSite, SESSION_KEY_COOKIE } from '../../../lib/server/forward-request';
import { readUpstreams } from '../../../lib/server/upstreams';

export const dynamic = 'force-dynamic';

const SaveKeySchema = z.object({ apiKey: z.string().trim().min(1, 'apiKey must not be blank').max(4096) });

/** Whether a hub API key is available: held by the server (HUB_API_KEY) or entered for this session. */
export function GET(request: Request): Response {
  return Response.json({ serverHeldKey: Boolean(readUpstreams().hubApiKey), sessionKey: Boolean(readCookie(request, SESSION_KEY_COOKIE)) });
}

/** Keeps a key the user entered in an HttpOnly, SameSite=Strict session cookie scoped to /bff. */
export async function POST(request: Request): Promise<Response> {
  const refused = refuseCrossSite(request);
  if (refused) return refused;
  const parsed = SaveKeySchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) {
    return Response.json(
      { type: 'https://mockyard.dev/problems/validation', title: 'Invalid request', status: 400, detail: 'apiKey must be a non-blank string',
        errors: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) },
      { status: 400, headers: { 'content-type': 'application/problem+json' } },
    );
  }
  const secure = new URL(request.url).protocol === 'https:' ? '; Secure' : '';
  return new Response(null, {
    status: 204,
    headers: { 'set-cookie': `${SESSION_KEY_COOKIE}=${encodeURIComponent(parsed.data.apiKey)}; Path=/bff; HttpOnly; SameSite=Strict${secure}` },
  });
}

export function DELETE(): Response {
  return new Response(null, { status: 204, headers: { 'set-cookie': `${SESSION_KEY_COOKIE}=; Path=/bff; HttpOnly; SameSite=Strict; Max-Age=0` } });
}
