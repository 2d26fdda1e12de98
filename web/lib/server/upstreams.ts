/**
 * Where this app's server-side forwarders send calls, read at run time (one build serves every setup).
 * Behind the gateway the browser reaches /api directly; these matter for /bff (the hub, with the API key)
 * and for running the dashboard alone (`next dev`, `npm start`).
 */
const DEFAULT_GATEWAY_URL = 'http://127.0.0.1:8080';

export function readUpstreams(env: NodeJS.ProcessEnv = process.env) {
  const gatewayUrl = trimSlash(env.GATEWAY_URL || DEFAULT_GATEWAY_URL);
  return {
    hubUrl: trimSlash(env.HUB_URL || gatewayUrl),
    trafficApiUrl: trimSlash(env.TRAFFIC_API_URL || gatewayUrl),
    /** Held here, never sent to the browser. Blank means none. */
    hubApiKey: env.HUB_API_KEY?.trim() || undefined,
  };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
