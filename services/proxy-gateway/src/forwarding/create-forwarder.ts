import http from 'node:http';
import { Agent } from 'undici';
import type { DeferredTrafficEvent, TrafficPublisher } from '@mockyard/bus';
import { OutboundPolicy, type Logger, type OutboundPolicySettings } from '@mockyard/service-kit';
import type { ForwarderOptions } from './forward-exchange';
import { createUpstreamDispatcher, PlainHttpPool } from './plain-http-pool';
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
 * A proxy is also an HTTP client for every request it serves, so the client's cost per request is much of the
 * gateway's: plain-http requests without a body (most of what is proxied) go through PlainHttpPool, a lean
 * keep-alive client; requests over TLS or with a body through undici's dispatcher, which costs about a third
 * less CPU per request than `http.request` (decision 5).
 */
export function createForwarder(settings: ForwarderSettings, publisher: TrafficPublisher | undefined, logger: Logger): Forwarder {
  const outbound = new OutboundPolicy({ ...settings.outbound, configKey: 'proxy.outbound' });
  // every upstream socket resolves through the policy: the address it connects to is the one checked
  const connect = { lookup: outbound.lookup, rejectUnauthorized: settings.verifyTls, timeout: settings.timeoutMs };
  // The forwarder keeps its own response timeout (proxy.timeout-ms, from the last byte sent); undici's are off.
  const timeouts = { headersTimeout: 0, bodyTimeout: 0 };
  // Pooled sockets idle for 4 s are closed before the common 5 s server keep-alive timeout (Node's default)
  // can close them under a request being sent; a shorter `Keep-Alive: timeout=` hint from a target wins.
  const agent = new Agent({ connect, ...timeouts, connections: settings.maxSockets, keepAliveTimeout: 4000, keepAliveMaxTimeout: 4000 });
  const plain = new PlainHttpPool({ connections: settings.maxSockets, connectTimeoutMs: settings.timeoutMs, lookup: outbound.lookup, idleTimeoutMs: 4000, maxHeaderSize: http.maxHeaderSize });
  const dispatcher = createUpstreamDispatcher(plain, agent);
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
      plain.close();
      void agent.destroy();
      void freshDispatcher.destroy();
    },
  };
}
