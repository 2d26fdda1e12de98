import { Agent } from 'undici';
import type { DeferredTrafficEvent, TrafficPublisher } from '@mockyard/bus';
import { OutboundPolicy, type Logger, type OutboundPolicySettings } from '@mockyard/service-kit';
import type { ForwarderOptions } from './forward-exchange';
import { createProxyCredentialsCheck } from './proxy-credentials';

export interface ForwarderSettings {
  timeoutMs: number;
  maxSockets: number;
  verifyTls: boolean;
  /** proxy.security.api-key: the key clients send in Proxy-Authorization (see createProxyCredentialsCheck). */
  apiKey?: string;
  captureEnabled: boolean;
  maxBodyBytes: number;
  redactHeaders: readonly string[];
  outbound: Omit<OutboundPolicySettings, 'configKey'>;
}

export interface Forwarder {
  options: ForwarderOptions;
  /** Closes pooled upstream connections. */
  close(): void;
}

/**
 * The forwarding dependencies shared by /proxy and the forward-proxy port: keep-alive connection pools
 * (reusing upstream connections is most of the gap to a plain pass-through proxy) and the capture settings.
 * The upstream client is undici's dispatcher, not `http.request`: a proxy is also an HTTP client for every
 * request it serves, and undici's client costs about a third less CPU per request than Node's (decision 5).
 */
export function createForwarder(settings: ForwarderSettings, publisher: TrafficPublisher | undefined, logger: Logger): Forwarder {
  const outbound = new OutboundPolicy({ ...settings.outbound, configKey: 'proxy.outbound' });
  // every upstream socket resolves through the policy: the address it connects to is the one checked
  const connect = { lookup: outbound.lookup, rejectUnauthorized: settings.verifyTls, timeout: settings.timeoutMs };
  // The forwarder keeps its own response timeout (proxy.timeout-ms, from the last byte sent); undici's are off.
  const timeouts = { headersTimeout: 0, bodyTimeout: 0 };
  // Pooled sockets idle for 4 s are closed before the common 5 s server keep-alive timeout (Node's default)
  // can close them under a request being sent; a shorter `Keep-Alive: timeout=` hint from a target wins.
  const dispatcher = new Agent({ connect, ...timeouts, connections: settings.maxSockets, keepAliveTimeout: 4000, keepAliveMaxTimeout: 4000 });
  const freshDispatcher = new Agent({ connect, ...timeouts, pipelining: 0 });
  const capture =
    settings.captureEnabled && publisher
      ? {
          maxBodyBytes: settings.maxBodyBytes,
          // With a proxy key, Proxy-Authorization carries it: redacted whatever capture.redact-headers lists.
          redactHeaders: new Set([...settings.redactHeaders, ...(settings.apiKey ? ['proxy-authorization'] : [])].map((h) => h.toLowerCase())),
          publish: (...args: Parameters<TrafficPublisher['publish']>) => publisher.publish(...args),
          publishLater: (build: DeferredTrafficEvent) => publisher.publishLater(build),
        }
      : undefined;
  return {
    options: { timeoutMs: settings.timeoutMs, dispatcher, freshDispatcher, capture, logger, outbound, credentials: createProxyCredentialsCheck(settings.apiKey) },
    close: () => {
      void dispatcher.destroy();
      void freshDispatcher.destroy();
    },
  };
}
