import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Upstream {
  url: string;
  served: () => number;
  openSockets: () => number;
  close: () => Promise<void>;
}

/**
 * A loopback target: /echo/* answers 200 with a small JSON body, /big/<MB> streams that many MiB (honouring
 * backpressure), /hang never answers.
 */
export async function startUpstream(): Promise<Upstream> {
  let served = 0;
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    served++;
    const url = req.url ?? '/';
    req.resume();
    if (url.startsWith('/hang')) return;
    if (url.startsWith('/big/')) {
      const total = Number(url.split('/')[2]) * 1024 * 1024;
      const chunk = Buffer.alloc(64 * 1024, 97);
      let left = total;
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(total) });
      const pump = () => {
        while (left > 0) {
          left -= chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => (left = 0));
      return pump();
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: true, path: url }));
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served: () => served,
    openSockets: () => sockets.size,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
