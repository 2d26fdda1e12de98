// The bench's constant-rate load generator (bench/lib/load.mjs runPaced), which the gateway scenario's
// "p99 added at half load" figure rests on: requests evenly spread over time (not autocannon's burst at the
// start of each second), every answer read to its Content-Length, and any other status failing the run.
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface PacedResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  requests: number;
}

const loadModule = pathToFileURL(path.join(__dirname, '../bench/lib/load.mjs')).href;

/** runPaced in a node process of its own (the bench's modules are ES modules, run as the bench runs them). */
function runPaced(url: string, options: { rate: number; durationS?: number; connections?: number; expectStatus?: number }): Promise<PacedResult> {
  const script = `import { runPaced } from ${JSON.stringify(loadModule)};
runPaced(${JSON.stringify(url)}, ${JSON.stringify(options)}).then((r) => console.log(JSON.stringify(r)), (e) => console.log(JSON.stringify({ error: e.message })));`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, NODE_OPTIONS: '' }, timeout: 30000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`${err.message}\n${stderr}`));
      const out = JSON.parse(stdout) as PacedResult | { error: string };
      if ('error' in out) reject(new Error(out.error));
      else resolve(out);
    });
  });
}

let server: http.Server;
let base: string;
const arrivals: number[] = [];

beforeAll(async () => {
  const body = Buffer.alloc(100 * 1024, 'x');
  server = http.createServer((req, res) => {
    arrivals.push(performance.now());
    if (req.url === '/large') return res.writeHead(200, { 'Content-Length': body.length }).end(body);
    if (req.url === '/missing') return res.writeHead(404, { 'Content-Length': 0 }).end();
    if (req.url === '/chunked') return res.writeHead(200).end('no length');
    res.writeHead(200, { 'Content-Length': 2 }).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  arrivals.length = 0;
});

it('spreads requests evenly over the run instead of bursting them at the start of each second', async () => {
  const result = await runPaced(`${base}/large`, { rate: 400, durationS: 2, connections: 8 });
  expect(result.requests).toBe(800);
  // one priming request per connection, then the 800 of the schedule
  expect(arrivals).toHaveLength(808);
  const scheduled = arrivals.slice(8);
  // 40 requests are due per 100 ms; autocannon's model puts a second's 400 into its first one or two bins and
  // leaves the rest empty (the bounds leave room for a busy CI machine delaying the generator a little)
  const bins = new Array(20).fill(0);
  for (const t of scheduled) bins[Math.min(19, Math.floor((t - scheduled[0]) / 100))]++;
  expect(Math.max(...bins)).toBeLessThan(160);
  expect(Math.min(...bins.slice(0, 19))).toBeGreaterThan(5);
  expect(result.p50Ms).toBeGreaterThan(0);
  expect(result.p99Ms).toBeGreaterThanOrEqual(result.p50Ms);
  expect(result.maxMs).toBeGreaterThanOrEqual(result.p99Ms);
});

it('measures steady state: each connection carries one uncounted request before the schedule starts', async () => {
  // a server slow to answer the first request of each connection (as a cluster handing the connection to a
  // worker, or a proxy opening its upstream connection, is): that second must not show in the figures
  const slowFirst = http.createServer((req, res) => {
    const answer = () => res.writeHead(200, { 'Content-Length': 2 }).end('ok');
    const socket = req.socket as typeof req.socket & { served?: boolean };
    if (socket.served) return answer();
    socket.served = true;
    setTimeout(answer, 1000);
  });
  await new Promise<void>((resolve) => slowFirst.listen(0, '127.0.0.1', resolve));
  try {
    const result = await runPaced(`http://127.0.0.1:${(slowFirst.address() as AddressInfo).port}/`, { rate: 100, durationS: 1, connections: 4 });
    expect(result.requests).toBe(100);
    expect(result.maxMs).toBeLessThan(1000);
  } finally {
    slowFirst.closeAllConnections();
    await new Promise<void>((resolve) => slowFirst.close(() => resolve()));
  }
});

it('fails the run on a status other than the expected one', async () => {
  await expect(runPaced(`${base}/missing`, { rate: 50, durationS: 0.2 })).rejects.toThrow(/status 404/);
  await expect(runPaced(`${base}/missing`, { rate: 50, durationS: 0.2, expectStatus: 404 })).resolves.toMatchObject({ requests: 10 });
});

it('fails the run on an answer without Content-Length and on a refused connection', async () => {
  await expect(runPaced(`${base}/chunked`, { rate: 50, durationS: 0.2 })).rejects.toThrow(/without Content-Length/);
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  await expect(runPaced(`http://127.0.0.1:${port}/`, { rate: 50, durationS: 0.2 })).rejects.toThrow(/ECONNREFUSED/);
});
