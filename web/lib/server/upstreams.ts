/**
 * Where this app's server-side forwarders send calls, read at run time (one build serves every setup).
 * The browser calls only this app (/bff/hub, /bff/traffic): the forwarders add the services' API keys,
 * which the browser never sees, behind the gateway and alone (`next dev`, `npm start`) alike.
 */
const DEFAULT_GATEWAY_URL = 'http://127.0.0.1:8080';

export function readUpstreams(env: NodeJS.ProcessEnv = process.env) {
  const gatewayUrl = trimSlash(env.GATEWAY_URL || DEFAULT_GATEWAY_URL);
  return {
    hubUrl: trimSlash(env.HUB_URL || gatewayUrl),
    trafficApiUrl: trimSlash(env.TRAFFIC_API_URL || gatewayUrl),
    /** Held here, never sent to the browser. Blank means none. */
    hubApiKey: env.HUB_API_KEY?.trim() || undefined,
    /** The traffic read API's key (the logger's traffic.security.api-key), held like hubApiKey. */
    trafficApiKey: env.TRAFFIC_API_KEY?.trim() || undefined,
  };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
