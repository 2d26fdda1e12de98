import type http from 'node:http';
import type { Duplex } from 'node:stream';
import express, { type Express } from 'express';
import { ApiRegistry, createServiceApp, finishApp, type Logger } from '@mockyard/service-kit';
import type { ForwarderOptions } from './forwarding/forward-exchange';
import type { SelfAddresses } from './forwarding/self-addresses';
import { registerDocsRoutes } from './routes/docs.routes';
import { registerHealthRoutes, type CaptureHealth } from './routes/health.routes';
import { registerInternalRoutes, type InternalTargets } from './routes/internal.routes';
import { createProxyHandler, isProxyPath, registerProxyApi } from './routes/proxy.routes';

export interface GatewayDeps {
  logger: Logger;
  forwarder: ForwarderOptions;
  self: SelfAddresses;
  trustForwardedFor: boolean;
  targets: InternalTargets;
  health: CaptureHealth;
}

export interface GatewayApp {
  /** The public port's request handler: /proxy directly, everything else through express. */
  handler: http.RequestListener;
  app: Express;
  /** Hand the HTTP server's 'upgrade' events here (WebSockets to the dashboard). */
  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
}

/**
 * The public gateway: /proxy, its own health, metrics and docs, and the internal services behind one
 * address. Bodies are never parsed here (every path streams), so the kit's parsers are off.
 */
export function createApp(deps: GatewayDeps): GatewayApp {
  const api = new ApiRegistry({ title: 'Mockyard gateway', version: '0.1.0' });
  const kit = createServiceApp({ service: 'proxy-gateway', logger: deps.logger, rawPaths: ['/'] });
  registerProxyApi(api);
  const proxy = createProxyHandler({ forwarder: deps.forwarder, self: deps.self, trustForwardedFor: deps.trustForwardedFor, logger: deps.logger });
  registerDocsRoutes(kit, api, [
    { service: 'traffic-logger', url: deps.targets.loggerUrl },
    { service: 'hub-api', url: deps.targets.hubUrl },
  ]);
  const internal = registerInternalRoutes(kit, deps.targets, deps.logger);
  finishApp(kit);

  // The kit answers /health/ready itself; the gateway's readiness (200 with DEGRADED while Redis is
  // away, plus capture counters) is mounted in front of it.
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  registerHealthRoutes(app, api, deps.health);
  app.use(kit);
  const handler: http.RequestListener = (req, res) => (isProxyPath(req.url) ? proxy(req, res) : app(req, res));
  const upgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!isProxyPath(req.url)) return internal.upgrade(req, socket, head);
    // Protocol upgrades are not proxied through /proxy: the exchange could not be captured as HTTP.
    socket.on('error', () => socket.destroy());
    socket.end('HTTP/1.1 501 Not Implemented\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nUpgrade requests are not proxied through /proxy\n');
  };
  return { handler, app, upgrade, close: internal.close };
}
