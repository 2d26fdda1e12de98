import http from 'node:http';
import { startServer, type StartedServer } from '@mockyard/service-kit';

/**
 * A plain reverse proxy that serves an engine under a path prefix (`/prefix/__admin/...` →
 * `/__admin/...`), as a gateway or ingress in front of an engine would.
 */
export async function startPrefixProxy(targetUrl: string, prefix: string): Promise<StartedServer> {
  const target = new URL(targetUrl);
  return startServer((req, res) => {
    if (!req.url?.startsWith(`${prefix}/`)) {
      res.writeHead(404).end('outside the prefix');
      return;
    }
    const upstream = http.request(
      { hostname: target.hostname, port: target.port, method: req.method, path: req.url.slice(prefix.length), headers: { ...req.headers, host: target.host } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  }, 0);
}
