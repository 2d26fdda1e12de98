import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express, NextFunction, Request, Response } from 'express';
import { createProxyServer } from 'http-proxy-3';
import { HttpProblem, POOLED_AGENT_OPTIONS, type Logger } from '@mockyard/service-kit';

export interface InternalTargets {
  loggerUrl: string;
  hubUrl: string;
  webUrl: string;
}

interface Route {
  service: string;
  url: string;
  matches(path: string): boolean;
}

export interface InternalRouter {
  /** Relays WebSocket upgrades (the dashboard's dev server) to the service owning the path. */
  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
}

/** The internal services behind the one public address, first match wins; the web app takes the rest. */
export function buildInternalRoutes(targets: InternalTargets): Route[] {
  return [
    { service: 'traffic-logger', url: targets.loggerUrl, matches: (p) => p === '/api' || p.startsWith('/api/') },
    { service: 'hub-api', url: targets.hubUrl, matches: (p) => p === '/hub' || p.startsWith('/hub/') || p === '/actuator' || p.startsWith('/actuator/') || p === '/mcp' || p.startsWith('/mcp/') },
    { service: 'web', url: targets.webUrl, matches: () => true },
  ];
}

/**
 * Routes /api/* to the traffic-logger, /hub/*, /actuator/* and /mcp to hub-api and everything else to the
 * web app (http-proxy-3 with keep-alive connections). A service that is down answers a 502 problem naming it.
 */
export function registerInternalRoutes(app: Express, targets: InternalTargets, logger: Logger): InternalRouter {
  const routes = buildInternalRoutes(targets);
  const agent = new http.Agent({ ...POOLED_AGENT_OPTIONS, maxSockets: 128 });
  const proxy = createProxyServer({ agent, xfwd: true, changeOrigin: false });
  proxy.on('error', (err, _req, res) => {
    logger.warn({ err: (err as Error).message }, 'internal route failed');
    if (res && 'destroy' in res && typeof res.destroy === 'function' && !('headersSent' in res)) res.destroy();
  });

  const pick = (path: string) => routes.find((r) => r.matches(path))!;

  app.use((req: Request, res: Response, next: NextFunction) => {
    const route = pick(req.path);
    proxy.web(req, res, { target: route.url }, (err: Error) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      next(HttpProblem.badGateway(`The ${route.service} service is not reachable at ${route.url} (${(err as Error & { code?: string }).code ?? err.message})`, { service: route.service }));
    });
  });

  return {
    upgrade(req, socket, head) {
      socket.on('error', () => socket.destroy());
      const route = pick(new URL(req.url ?? '/', 'http://gateway').pathname);
      proxy.ws(req, socket, head, { target: route.url }, () => socket.destroy());
    },
    close() {
      agent.destroy();
      proxy.close();
    },
  };
}
