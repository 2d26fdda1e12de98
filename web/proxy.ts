import { NextResponse, type NextRequest } from 'next/server';
import { refusedHostDetail, type AllowedHosts } from '@mockyard/contracts';
import { readAllowedHosts } from './lib/security/allowed-hosts';
import { buildContentSecurityPolicy, createNonce, NONCE_HEADER } from './lib/security/security-headers';
import { problemResponse } from './lib/server/forward-request';

/** The Host names this app answers to, read once; an invalid ALLOWED_HOSTS is kept as the error every request gets. */
const allowedHosts: AllowedHosts | Error = (() => {
  try {
    return readAllowedHosts();
  } catch (err) {
    return new Error(`ALLOWED_HOSTS: ${(err as Error).message}`);
  }
})();

/** 403 for a Host this app does not answer to (DNS rebinding), 500 while ALLOWED_HOSTS is not valid. */
function refuseHost(request: NextRequest): Response | undefined {
  const instance = request.nextUrl.pathname;
  if (allowedHosts instanceof Error) return problemResponse(500, 'internal', 'Internal server error', allowedHosts.message, { instance });
  const host = request.headers.get('host') ?? undefined;
  if (allowedHosts.allows(host)) return undefined;
  return problemResponse(403, 'forbidden', 'Forbidden', refusedHostDetail(host ?? '', 'ALLOWED_HOSTS'), { instance });
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
