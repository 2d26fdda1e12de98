// The practical ceiling of a Node proxy on this machine, for bench/gateway.mjs's A/B slot:
//   MINIMAL_CLIENT=undici BENCH_PEERS=0 BENCH_COMPARE_MAIN=bench/lib/minimal-proxy.cjs node bench/gateway.mjs
// `/proxy?url=` pass-through with nothing else: a cluster of MINIMAL_WORKERS (default 2) like the gateway, a
// keep-alive upstream pool, hop-by-hop response headers dropped, no capture, no header rules, no timeouts,
// no error pages. MINIMAL_CLIENT=http (default) uses http.request and an http.Agent, undici its dispatcher.
'use strict';
const http = require('node:http');
const cluster = require('node:cluster');

const workers = Number(process.env.MINIMAL_WORKERS || 2);
const HOP = /^(connection|keep-alive|transfer-encoding)$/i;

if (cluster.isPrimary && workers > 1) {
  for (let i = 0; i < workers; i++) cluster.fork();
  process.on('SIGTERM', () => {
    for (const w of Object.values(cluster.workers)) w.kill('SIGTERM');
    process.exit(0);
  });
} else {
  const useUndici = process.env.MINIMAL_CLIENT === 'undici';
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const dispatcher = useUndici ? new (require('undici').Agent)({ connections: 256 }) : undefined;
  http
    .createServer((req, res) => {
      if (req.url === '/health/live') return res.end('ok');
      const target = new URL(new URL(req.url, 'http://x').searchParams.get('url'));
      const fail = () => {
        if (!res.headersSent) res.statusCode = 502;
        res.end();
      };
      if (!useUndici) {
        const up = http.request({ hostname: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers: { host: target.host }, agent }, (upRes) => {
          const headers = [];
          for (let i = 0; i < upRes.rawHeaders.length; i += 2) if (!HOP.test(upRes.rawHeaders[i])) headers.push(upRes.rawHeaders[i], upRes.rawHeaders[i + 1]);
          res.writeHead(upRes.statusCode, headers);
          upRes.on('data', (chunk) => {
            if (!res.write(chunk)) upRes.pause();
          });
          res.on('drain', () => upRes.resume());
          upRes.on('end', () => res.end());
        });
        up.on('error', fail);
        req.pipe(up);
        return;
      }
      const body = req.method === 'GET' || req.method === 'HEAD' ? null : req;
      dispatcher.dispatch(
        { origin: target.origin, path: target.pathname + target.search, method: req.method, headers: ['host', target.host], body },
        {
          onRequestStart() {},
          onResponseStart(controller, status) {
            const raw = controller.rawHeaders;
            const headers = [];
            for (let i = 0; i < raw.length; i += 2) if (!HOP.test(raw[i].toString())) headers.push(raw[i].toString(), raw[i + 1].toString());
            res.writeHead(status, headers);
            res.on('drain', () => controller.resume());
          },
          onResponseData(controller, chunk) {
            if (!res.write(chunk)) controller.pause();
          },
          onResponseEnd() {
            res.end();
          },
          onResponseError: fail,
        },
      );
    })
    .listen(Number(process.env.SERVER_PORT), '127.0.0.1');
}
