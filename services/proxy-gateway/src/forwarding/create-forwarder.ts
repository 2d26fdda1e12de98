import http from 'node:http';
import https from 'node:https';
import type { TrafficPublisher } from '@mockyard/bus';
import type { Logger } from '@mockyard/service-kit';
import { OutboundPolicy, type OutboundPolicySettings } from '../domain/outbound-policy';
import type { ForwarderOptions } from './forward-exchange';

export interface ForwarderSettings {
  timeoutMs: number;
  maxSockets: number;
  verifyTls: boolean;
  captureEnabled: boolean;
  maxBodyBytes: number;
  redactHeaders: readonly string[];
  outbound: OutboundPolicySettings;
}

export interface Forwarder {
  options: ForwarderOptions;
  /** Closes pooled upstream connections. */
  close(): void;
}

/**
 * The forwarding dependencies shared by /proxy and the forward-proxy port: keep-alive agents (reusing
 * upstream connections is most of the gap to a plain pass-through proxy) and the capture settings.
 */
export function createForwarder(settings: ForwarderSettings, publisher: TrafficPublisher | undefined, logger: Logger): Forwarder {
  const outbound = new OutboundPolicy(settings.outbound);
  // every upstream socket resolves through the policy: the address it connects to is the one checked
  // Pooled sockets idle for 4 s are closed before the common 5 s server keep-alive timeout (Node's default)
  // can close them under a request being sent; the agent also honours a shorter `Keep-Alive: timeout=` hint.
  const agentOptions = { lookup: outbound.lookup, keepAlive: true, timeout: 4000, maxSockets: settings.maxSockets, maxFreeSockets: Math.min(64, settings.maxSockets), scheduling: 'lifo' as const };
  const httpAgent = new http.Agent(agentOptions);
  const httpsAgent = new https.Agent({ ...agentOptions, rejectUnauthorized: settings.verifyTls });
  const freshHttpAgent = new http.Agent({ lookup: outbound.lookup, keepAlive: false });
  const freshHttpsAgent = new https.Agent({ lookup: outbound.lookup, keepAlive: false, rejectUnauthorized: settings.verifyTls });
  const capture =
    settings.captureEnabled && publisher
      ? {
          maxBodyBytes: settings.maxBodyBytes,
          redactHeaders: new Set(settings.redactHeaders.map((h) => h.toLowerCase())),
          publish: (...args: Parameters<TrafficPublisher['publish']>) => publisher.publish(...args),
        }
      : undefined;
  return {
    options: { timeoutMs: settings.timeoutMs, httpAgent, httpsAgent, freshHttpAgent, freshHttpsAgent, capture, logger, outbound },
    close: () => {
      httpAgent.destroy();
      httpsAgent.destroy();
      freshHttpAgent.destroy();
      freshHttpsAgent.destroy();
    },
  };
}
