import { NextResponse, type NextRequest } from 'next/server';
import { problemTypes, refusedHostDetail, type AllowedHosts } from '@mockyard/contracts';
import { readAllowedHosts } from './lib/security/allowed-hosts';
import { buildContentSecurityPolicy, createNonce, NONCE_HEADER } from './lib/security/security-headers';

let allowedHosts: AllowedHosts | Error | undefined;

/** 403 for a Host this app does not answer to (DNS rebinding), 500 while ALLOWED_HOSTS is not valid. */
function refuseHost(request: NextRequest): NextResponse | undefined {
  if (!allowedHosts) {
    try {
      allowedHosts = readAllowedHosts();
    } catch (err) {
      allowedHosts = new Error(`ALLOWED_HOSTS: ${(err as Error).message}`);
    }
  }
  const host = request.headers.get('host') ?? undefined;
  if (!(allowedHosts instanceof Error) && allowedHosts.allows(host)) return undefined;
  const [status, title, detail] =
    allowedHosts instanceof Error ? [500, 'Internal server error', allowedHosts.message] : [403, 'Forbidden', refusedHostDetail(host ?? '', 'ALLOWED_HOSTS')];
  const type = status === 403 ? problemTypes.forbidden : problemTypes.internal;
  return NextResponse.json({ type, title, status, detail, instance: request.nextUrl.pathname }, { status, headers: { 'Content-Type': 'application/problem+json' } });
}

/**
 * Runs before every page and route handler (not static files): the Host check (refuseHost), then a fresh
 * nonce per request, put in the Content-Security-Policy of the response and of the request — Next.js reads
 * the request's policy to put the nonce on its own scripts, and the root layout reads x-nonce for the theme
 * script.
 */
export function proxy(request: NextRequest) {
  const refused = refuseHost(request);
  if (refused) return refused;
  const nonce = createNonce();
  const policy = buildContentSecurityPolicy(nonce, { isDev: process.env.NODE_ENV === 'development' });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set(NONCE_HEADER, nonce);
  requestHeaders.set('Content-Security-Policy', policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('Content-Security-Policy', policy);
  return response;
}

export const config = {
  matcher: [{ source: '/((?!_next/static|_next/image).*)' }],
};
