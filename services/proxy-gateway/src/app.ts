import type http from 'node:http';
import type { Duplex } from 'node:stream';
import express, { type Express } from 'express';
import { ApiRegistry, createAllowedHosts, createServiceApp, finishApp, HttpProblem, refusedHostProblem, type Logger } from '@mockyard/service-kit';
import type { ForwarderOptions } from './forwarding/forward-exchange';
import type { SelfAddresses } from './forwarding/self-addresses';
import { sendProblem } from './forwarding/send-problem';
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
  /** `server.allowed-hosts` entries (see AllowedHosts); every request on the public port is checked first. */
  allowedHosts?: readonly string[];
}

export interface GatewayApp {
  /** The public port's request handler: /proxy directly, everything else through express. */
  handler: http.RequestListener;
  app: Express;
  /** Hand the HTTP server's WebSocket 'upgrade' events here (other upgrades: serveWithoutUpgrade). */
  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
}

/**
 * The public gateway: /proxy, its own health, metrics and docs, and the internal services behind one
 * address. Bodies are never parsed here (every path streams), so the kit's parsers are off.
 */
export function createApp(deps: GatewayDeps): GatewayApp {
  const api = new ApiRegistry({ title: 'Mockyard gateway', version: '0.1.0' });
  // The Host check runs in front of everything (handler and upgrade below), so not again in the kit.
  const kit = createServiceApp({ service: 'proxy-gateway', logger: deps.logger, rawPaths: ['/'], allowedHosts: ['*'] });
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
  const allowedHosts = createAllowedHosts(deps.allowedHosts ?? []);
  const handler: http.RequestListener = (req, res) => {
    if (!allowedHosts.allows(req.headers.host)) return refuseHost(req, res, deps.logger);
    if (isProxyPath(req.url)) proxy(req, res);
    else app(req, res);
  };
  const upgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!allowedHosts.allows(req.headers.host)) return endWithProblem(socket, refusedHostProblem(req.headers.host ?? ''), 'Forbidden', req.url);
    if (!isProxyPath(req.url)) return internal.upgrade(req, socket, head);
    // WebSockets are not proxied through /proxy: the exchange could not be captured as HTTP.
    endWithProblem(socket, new HttpProblem(501, 'notImplemented', 'WebSocket upgrades are not proxied through /proxy: the exchange could not be captured as HTTP'), 'Not Implemented', req.url);
  };
  return { handler, app, upgrade, close: internal.close };
}

/** Answers an upgrade request on its raw socket with a problem+json and closes the connection. */
function endWithProblem(socket: Duplex, problem: HttpProblem, reason: string, instance: string | undefined): void {
  const body = JSON.stringify(problem.toProblem(instance));
  socket.on('error', () => socket.destroy());
  socket.end(`HTTP/1.1 ${problem.status} ${reason}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/**
 * The 403 problem+json of a request whose Host the gateway does not answer to; its body is not read. Logged
 * (path without query: a /proxy target may carry secrets) so an operator sees why a name is refused.
 */
function refuseHost(req: http.IncomingMessage, res: http.ServerResponse, logger: Logger): void {
  logger.info({ host: req.headers.host, path: (req.url ?? '/').split('?')[0], status: 403 }, 'request refused: its Host is not in server.allowed-hosts');
  req.resume();
  sendProblem(res, refusedHostProblem(req.headers.host ?? ''), req.url);
}
