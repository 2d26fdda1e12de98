import http, { type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { RequestListener } from 'node:http';

export interface StartedServer {
  server: Server;
  port: number;
  url: string;
  /** Stops accepting, lets in-flight requests finish, then force-closes what is left after `graceMs`. */
  close(graceMs?: number): Promise<void>;
}

/** Listens on host:port (port 0 picks a free one) and tracks sockets so close() can drain. */
export async function startServer(handler: RequestListener | Server, port: number, host = '127.0.0.1'): Promise<StartedServer> {
  const server = handler instanceof http.Server ? handler : http.createServer(handler);
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    // a socket handed back as a new connection (the gateway's serveWithoutUpgrade) is tracked once
    if (sockets.has(s)) return;
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    server,
    port: actual,
    url: `http://${shownHost}:${actual}`,
    close: (graceMs = 5000) =>
      new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        const timer = setTimeout(() => {
          for (const s of sockets) s.destroy();
        }, graceMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
