import http from 'node:http';
import type { Readable } from 'node:stream';

export interface CallResult {
  status: number;
  statusMessage: string;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
}

/** A raw HTTP call (no decompression, no redirects), optionally through an HTTP proxy. */
export function call(
  url: string,
  options: { method?: string; headers?: http.OutgoingHttpHeaders; body?: Buffer | string | Readable; proxy?: string } = {},
): Promise<CallResult> {
  const target = new URL(url);
  const via = options.proxy ? new URL(options.proxy) : undefined;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: via ? via.hostname : target.hostname,
        port: via ? via.port : target.port,
        path: via ? url : `${target.pathname}${target.search}`,
        method: options.method ?? 'GET',
        headers: {
          ...(via ? { Host: target.host } : {}),
          // Node's client sends a DELETE/OPTIONS body without framing unless the length is given.
          ...(typeof options.body === 'string' || Buffer.isBuffer(options.body) ? { 'Content-Length': Buffer.byteLength(options.body) } : {}),
          ...options.headers,
        },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, statusMessage: res.statusMessage ?? '', headers: res.headers, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    const body = options.body;
    if (body === undefined) req.end();
    else if (typeof body === 'string' || Buffer.isBuffer(body)) req.end(body);
    else body.pipe(req);
  });
}

export function json<T = Record<string, unknown>>(result: CallResult): T {
  return JSON.parse(result.body.toString('utf8')) as T;
}
