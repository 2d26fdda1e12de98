import { buildContentSecurityPolicy, createNonce, STATIC_SECURITY_HEADERS } from './security-headers';

const directive = (csp: string, name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `));

describe('buildContentSecurityPolicy', () => {
  it.each([
    ['script-src', "script-src 'self' 'nonce-abc' 'strict-dynamic'"],
    ['frame-ancestors', "frame-ancestors 'none'"],
    ['object-src', "object-src 'none'"],
    ['base-uri', "base-uri 'self'"],
    ['connect-src', "connect-src 'self'"],
  ])('sets %s', (name, expected) => {
    expect(directive(buildContentSecurityPolicy('abc'), name)).toBe(expected);
  });

  it('never lets inline or evaluated scripts run in production', () => {
    const scripts = directive(buildContentSecurityPolicy('abc'), 'script-src')!;
    expect(scripts).not.toContain('unsafe-inline');
    expect(scripts).not.toContain('unsafe-eval');
  });

  it('allows eval only in development, where React needs it', () => {
    expect(directive(buildContentSecurityPolicy('abc', { isDev: true }), 'script-src')).toContain("'unsafe-eval'");
  });
});

describe('createNonce', () => {
  it('is 128 bits of base64 and different every time', () => {
    const nonces = new Set(Array.from({ length: 50 }, () => createNonce()));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});

describe('STATIC_SECURITY_HEADERS', () => {
  it('forbids sniffing and framing', () => {
    expect(Object.fromEntries(STATIC_SECURITY_HEADERS.map((h) => [h.key, h.value]))).toMatchObject({ 'X-Content-Type-Options': 'nosniff', 'X-Frame-Options': 'DENY' });
  });
});
