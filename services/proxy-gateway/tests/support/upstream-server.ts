import { createHash } from 'node:crypto';
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { startServer, type StartedServer } from '@mockyard/service-kit';

export interface UpstreamServer extends StartedServer {
  /** Requests seen, in order, with what arrived. */
  seen: { method: string; url: string; headers: http.IncomingHttpHeaders; rawHeaders: string[] }[];
  /** Resolves when a request to /hang was torn down (the gateway aborted it). */
  hangClosed: Promise<void>;
}

export const BINARY = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
export const GZIPPED_JSON = gzipSync(Buffer.from(JSON.stringify({ compressed: true, filler: 'x'.repeat(500) })));

/**
 * A real HTTP server with one behaviour per path, for the gateway to forward to:
 * /echo (request as JSON), /gzip, /binary, /redirect, /status/<n>, /slow, /hang, /download?bytes=n,
 * /upload (counts and hashes the body), /cookies (two Set-Cookie headers).
 */
export async function startUpstream(): Promise<UpstreamServer> {
  const seen: UpstreamServer['seen'] = [];
  let markHangClosed!: () => void;
  const hangClosed = new Promise<void>((resolve) => (markHangClosed = resolve));
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers, rawHeaders: req.rawHeaders });
    const url = new URL(req.url!, 'http://upstream');
    const path = url.pathname;
    if (path === '/upload') {
      const hash = createHash('sha256');
      let bytes = 0;
      req.on('data', (c: Buffer) => {
        bytes += c.length;
        hash.update(c);
      });
      req.on('end', () => {
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ bytes, sha256: hash.digest('hex') }));
      });
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (path === '/echo' || path.startsWith('/echo/')) {
        res.setHeader('Content-Type', 'application/json');
        res.setHeader('X-Upstream', 'echo');
        res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body: body.toString('base64'), bodyLength: body.length }));
      } else if (path === '/gzip') {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': GZIPPED_JSON.length });
        res.end(GZIPPED_JSON);
      } else if (path === '/binary') {
        res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': BINARY.length });
        res.end(BINARY);
      } else if (path === '/redirect') {
        res.writeHead(302, { Location: '/echo' });
        res.end();
      } else if (path.startsWith('/status/')) {
        res.writeHead(Number(path.slice(8)), 'Custom Reason', { 'Content-Type': 'text/plain' });
        res.end(`status ${path.slice(8)}`);
      } else if (path === '/cookies') {
        res.setHeader('Set-Cookie', ['a=1; Path=/', 'b=2; Path=/']);
        res.end('cookies');
      } else if (path === '/slow') {
        setTimeout(() => res.end('late'), 2000).unref();
      } else if (path === '/hang') {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('partial');
        res.on('close', () => markHangClosed());
      } else if (path === '/download') {
        streamBytes(res, Number(url.searchParams.get('bytes')));
      } else {
        res.writeHead(404).end();
      }
    });
  });
  const started = await startServer(server, 0);
  return Object.assign(started, { seen, hangClosed });
}

/** Streams `total` bytes of a repeating pattern, respecting backpressure (nothing held in memory). */
function streamBytes(res: http.ServerResponse, total: number): void {
  res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': total });
  const chunk = Buffer.alloc(64 * 1024, 'abcdefghijklmnopqrstuvwxyz');
  let sent = 0;
  const pump = () => {
    while (sent < total) {
      const n = Math.min(chunk.length, total - sent);
      sent += n;
      if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
        res.once('drain', pump);
        return;
      }
    }
    res.end();
  };
  pump();
}
