import path from 'node:path';
import type { NextConfig } from 'next';
import { STATIC_SECURITY_HEADERS } from './lib/security/security-headers';

const monorepoRoot = path.join(__dirname, '..');

/**
 * The dashboard is served behind the gateway (/api -> traffic-logger, /hub -> hub-api, the rest -> here).
 * The browser calls only this app's route handlers in app/bff, which read the upstreams and keys at run time,
 * not baked in here, so one build works behind the gateway and alone.
 */
const nextConfig: NextConfig = {
  output: 'standalone',
  outputFileTracingRoot: monorepoRoot,
  turbopack: { root: monorepoRoot },
  poweredByHeader: false,
  reactStrictMode: true,
  // nosniff, no framing, no referrer, no powerful features, on every response (static files included);
  // the Content-Security-Policy with its per-request nonce is set by proxy.ts.
  async headers() {
    return [{ source: '/:path*', headers: STATIC_SECURITY_HEADERS }];
  },
};

export default nextConfig;
