// The baseline every scenario reports against: a bare node:http server in its own process returning fixed
// bytes per path (status, content type, body) and nothing else — what any HTTP server costs on this
// machine at this moment.
import { startProcess, freePort, waitHealthy } from './process.mjs';

/**
 * `routes`: { '/path': { status, contentType, body } }. Unknown paths answer 404 with an empty body.
 * Returns { url, pid, stop }.
 */
export async function startBareServer(routes, { name = 'bare node:http' } = {}) {
  const port = await freePort();
  const script = `
    const http = require('node:http');
    const routes = new Map(Object.entries(JSON.parse(process.env.BARE_ROUTES)).map(([p, r]) => [p, { ...r, body: Buffer.from(r.body) }]));
    http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.url === '/__bare_health__') { res.writeHead(204); return res.end(); }
        const r = routes.get(req.url);
        if (!r) { res.writeHead(404, { 'Content-Length': 0 }); return res.end(); }
        res.writeHead(r.status, { 'Content-Type': r.contentType, 'Content-Length': r.body.length });
        res.end(r.body);
      });
    }).listen(${port}, '127.0.0.1');`;
  const proc = startProcess(name, process.execPath, ['-e', script], { env: { ...process.env, BARE_ROUTES: JSON.stringify(routes) } });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(proc, url + '/__bare_health__', { timeoutMs: 10000 });
  return { name, url, pid: proc.pid, proc, stop: proc.stop };
}
