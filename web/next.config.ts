import path from 'node:path';
import type { NextConfig } from 'next';
import { STATIC_SECURITY_HEADERS } from './lib/security/security-headers';

const monorepoRoot = path.join(__dirname, '..');

/**
 * The dashboard is served behind the gateway (/api -> traffic-logger, /hub -> hub-api, the rest -> here).
 * Upstreams for the standalone case are read at run time by the route handlers in app/api and app/bff,
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
