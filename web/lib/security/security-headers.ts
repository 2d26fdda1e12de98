/**
 * The dashboard's browser security headers. The Content-Security-Policy carries a fresh nonce per page
 * request (proxy.ts): Next.js reads it from the request's CSP header and puts it on its own hydration
 * scripts, so no script runs without it — no 'unsafe-inline' for scripts. Styles do allow inline: the
 * server-rendered markup has style attributes and CodeMirror injects <style> elements (CSS, not code).
 */
export const NONCE_HEADER = 'x-nonce';

export function buildContentSecurityPolicy(nonce: string, options: { isDev?: boolean } = {}): string {
  const directives = [
    "default-src 'self'",
    // React needs eval only in development (rebuilding server error stacks); never in production.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.isDev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    // the live feed (EventSource) and every API call go to this origin (/api, /bff)
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  return directives.join('; ');
}

/** Headers for every response (pages, route handlers, static files): set in next.config.ts. */
export const STATIC_SECURITY_HEADERS: { key: string; value: string }[] = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Referrer-Policy', value: 'no-referrer' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()' },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
];

/** 128 random bits, base64: unguessable and valid in a CSP nonce-source. */
export function createNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
