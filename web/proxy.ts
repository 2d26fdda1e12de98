import { NextResponse, type NextRequest } from 'next/server';
import { buildContentSecurityPolicy, createNonce, NONCE_HEADER } from './lib/security/security-headers';

/**
 * Runs before every page and route handler (not static files): a fresh nonce per request, put in the
 * Content-Security-Policy of the response and of the request — Next.js reads the request's policy to put
 * the nonce on its own scripts, and the root layout reads x-nonce for the theme script.
 */
export function proxy(request: NextRequest) {
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
