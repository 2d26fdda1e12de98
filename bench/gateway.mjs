#!/usr/bin/env node
// Gateway throughput benchmark, one run, every figure measured against the same upstream:
//   direct                 autocannon -> upstream
//   /proxy (capture on)    autocannon -> gateway :port/proxy?url=… -> upstream, events XADDed to Redis
//   forward proxy          autocannon -> gateway forward-proxy port (absolute-form) -> upstream
//   plain http-proxy       autocannon -> a bare http-proxy-3 pass-through (no keep-alive agent, no capture)
// for a small body and a 100 KiB body. Ratios are the figures: /proxy vs direct (target >= 25%) and
// /proxy vs plain http-proxy (target >= 1.5x).
//
// Needs: a build (npx tsc -b tsconfig.json) and a Redis (REDIS_URL, default redis://127.0.0.1:6379).
// Options (env): BENCH_DURATION_S (default 5), BENCH_ROUNDS (default 3), BENCH_CONNECTIONS (default 32),
// BENCH_SIZES (default small,100KiB), BENCH_LARGE_JSON=1 (100 KiB JSON body), BENCH_JSON=1 for JSON only; BENCH_COMPARE_MAIN=<path to another build's services/proxy-gateway/dist/main.js>
// adds that gateway's /proxy as a fifth target in the same interleaved rounds (A/B of two builds on a
// shared machine: compare the two /proxy figures of one run, not figures of different runs). The targets
// are measured in interleaved rounds and each figure is the
// median of its rounds, so a burst of load from another process skews one round, not one target.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'services/proxy-gateway/package.json'));
const autocannon = require('autocannon');
const Redis = require('ioredis');

const durationS = Number(process.env.BENCH_DURATION_S ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `bench-${process.pid}`;
const gatewayMain = join(root, 'services/proxy-gateway/dist/main.js');
if (!existsSync(gatewayMain)) {
  process.stderr.write(`missing ${gatewayMain}: run "npx tsc -b tsconfig.json" first\n`);
  process.exit(2);
}

const UPSTREAM = `
const http = require('node:http');
const small = Buffer.from(JSON.stringify({ ok: true, id: 42, name: 'small body' }));
// BENCH_LARGE_JSON=1: the 100 KiB body is a JSON document (quotes to escape) instead of plain text.
const largeJson = process.env.BENCH_LARGE_JSON === '1';
const large = largeJson
  ? Buffer.from(JSON.stringify(Array.from({ length: 1600 }, (_, i) => ({ id: i, name: 'item ' + i, tags: ['a', 'b'] }))).padEnd(100 * 1024, ' '))
  : Buffer.alloc(100 * 1024, 'mockyard-bench-');
http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const body = req.url.startsWith('/large') ? large : small;
    res.writeHead(200, { 'Content-Type': req.url.startsWith('/large') && !largeJson ? 'text/plain' : 'application/json', 'Content-Length': body.length });
    res.end(body);
  });
}).listen(0, '127.0.0.1', function () { process.send(this.address().port); });
`;

const PLAIN_PROXY = `
const http = require('node:http');
const { createProxyServer } = require('http-proxy-3');
const proxy = createProxyServer({ target: process.env.TARGET });
proxy.on('error', (_err, _req, res) => { try { res.writeHead(502); res.end(); } catch {} });
http.createServer((req, res) => proxy.web(req, res)).listen(0, '127.0.0.1', function () { process.send(this.address().port); });
`;

const children = [];
function startChild(args, env = {}) {
  const child = spawn(process.execPath, args, { cwd: join(root, 'services/proxy-gateway'), env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.push(child);
  return child;
}
function startScript(source, env) {
  const child = startChild(['-e', source], env);
  return new Promise((resolve, reject) => {
    child.once('message', (port) => resolve(port));
    child.once('exit', (code) => reject(new Error(`child exited with ${code}`)));
  });
}
async function waitForHttp(url, timeoutMs = 15000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {}
    if (Date.now() > deadline) throw new Error(`${url} did not come up`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function run(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections, pipelining: 1, duration: durationS, ...opts }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

/** CPU time (ms) a process has used so far, from /proc (Linux); undefined elsewhere. */
function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

/** One run; with `pid`, also the CPU microseconds that process spent per request (contention-proof). */
async function measureOnce({ pid, ...opts }) {
  const before = pid ? cpuMsOf(pid) : undefined;
  const r = await run(opts);
  const after = pid ? cpuMsOf(pid) : undefined;
  const cpuUsPerRequest = before !== undefined && after !== undefined && r.requests.total > 0 ? ((after - before) * 1000) / r.requests.total : undefined;
  return { rps: r.requests.average, p99Ms: r.latency.p99, failed: r.non2xx + r.errors + r.timeouts, cpuUsPerRequest };
}

/** Warms every target up, then measures them in interleaved rounds; medians per target. */
async function measureAll(targets) {
  for (const { pid: _pid, ...opts } of Object.values(targets)) await run({ ...opts, duration: 2 });
  const samples = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, opts] of Object.entries(targets)) samples[name].push(await measureOnce(opts));
  }
  return Object.fromEntries(
    Object.entries(samples).map(([name, list]) => [
      name,
      {
        rps: Math.round(median(list.map((s) => s.rps))),
        p99Ms: median(list.map((s) => s.p99Ms)),
        non2xx: list.reduce((n, s) => n + s.failed, 0),
        roundsRps: list.map((s) => Math.round(s.rps)),
        cpuUsPerRequest: list[0].cpuUsPerRequest === undefined ? undefined : Math.round(median(list.map((s) => s.cpuUsPerRequest))),
      },
    ]),
  );
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function main() {
  const spoolDir = mkdtempSync(join(tmpdir(), 'bench-spool-'));
  const upstreamPort = await startScript(UPSTREAM);
  const upstream = `http://127.0.0.1:${upstreamPort}`;
  const plainPort = await startScript(PLAIN_PROXY, { TARGET: upstream });
  const [gatewayPort, proxyPort] = [await freePort(), await freePort()];
  const [upstreamChild, plainChild] = children;
  const gatewayChild = startChild([gatewayMain], {
    SERVER_PORT: String(gatewayPort),
    SERVICE_PROXY_PORT: String(proxyPort),
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    CAPTURE_SPOOL_DIR: spoolDir,
    // Keep the shared Redis small: 100 KiB bodies are captured in full.
    CAPTURE_STREAM_MAX_LENGTH: '500',
    LOG_LEVEL: 'WARN',
  });
  const gateway = `http://127.0.0.1:${gatewayPort}`;
  await waitForHttp(`${gateway}/health/live`);
  const compareMain = process.env.BENCH_COMPARE_MAIN;
  let compare;
  if (compareMain) {
    const [port, fwdPort] = [await freePort(), await freePort()];
    const child = startChild([compareMain], { SERVER_PORT: String(port), SERVICE_PROXY_PORT: String(fwdPort), REDIS_URL: redisUrl, REDIS_PREFIX: `${prefix}-b`, CAPTURE_SPOOL_DIR: join(spoolDir, 'compare'), CAPTURE_STREAM_MAX_LENGTH: '500', LOG_LEVEL: 'WARN' });
    compare = { url: `http://127.0.0.1:${port}`, pid: child.pid };
    await waitForHttp(`${compare.url}/health/live`);
  }

  const rows = [];
  const sizes = (process.env.BENCH_SIZES ?? 'small,100KiB').split(',');
  for (const [size, path] of [
    ['small', '/small'],
    ['100KiB', '/large'],
  ].filter(([size]) => sizes.includes(size))) {
    const m = await measureAll({
      direct: { url: `${upstream}${path}`, pid: upstreamChild.pid },
      viaProxy: { url: `${gateway}/proxy?url=${encodeURIComponent(`${upstream}${path}`)}`, pid: gatewayChild.pid },
      forward: { url: `http://127.0.0.1:${proxyPort}`, requests: [{ method: 'GET', path: `${upstream}${path}` }], pid: gatewayChild.pid },
      plain: { url: `http://127.0.0.1:${plainPort}${path}`, pid: plainChild.pid },
      ...(compare ? { compareProxy: { url: `${compare.url}/proxy?url=${encodeURIComponent(`${upstream}${path}`)}`, pid: compare.pid } } : {}),
    });
    rows.push({ size, ...m });
  }
  const metrics = await (await fetch(`${gateway}/health/ready`)).json();

  const report = rows.map(({ size, direct, viaProxy, forward, plain, compareProxy }) => ({
    size,
    directRps: direct.rps,
    proxyRps: viaProxy.rps,
    forwardRps: forward.rps,
    plainHttpProxyRps: plain.rps,
    p99Ms: { direct: direct.p99Ms, proxy: viaProxy.p99Ms, forward: forward.p99Ms, plainHttpProxy: plain.p99Ms },
    proxyVsDirect: ratio(viaProxy.rps, direct.rps),
    forwardVsDirect: ratio(forward.rps, direct.rps),
    proxyVsPlainHttpProxy: ratio(viaProxy.rps, plain.rps),
    forwardVsPlainHttpProxy: ratio(forward.rps, plain.rps),
    failedRequests: { direct: direct.non2xx, proxy: viaProxy.non2xx, forward: forward.non2xx, plainHttpProxy: plain.non2xx },
    roundsRps: { direct: direct.roundsRps, proxy: viaProxy.roundsRps, forward: forward.roundsRps, plainHttpProxy: plain.roundsRps },
    cpuUsPerRequest: { upstreamDirect: direct.cpuUsPerRequest, gatewayProxy: viaProxy.cpuUsPerRequest, gatewayForward: forward.cpuUsPerRequest, plainHttpProxy: plain.cpuUsPerRequest },
    ...(compareProxy
      ? { compare: { main: compareMain, proxyRps: compareProxy.rps, roundsRps: compareProxy.roundsRps, cpuUsPerRequest: compareProxy.cpuUsPerRequest, proxyVsCompare: ratio(viaProxy.rps, compareProxy.rps), compareVsDirect: ratio(compareProxy.rps, direct.rps), compareVsPlainHttpProxy: ratio(compareProxy.rps, plain.rps) } }
      : {}),
  }));
  const summary = { connections, durationS, rounds, capture: metrics.capture, results: report };
  if (process.env.BENCH_JSON) {
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  } else {
    process.stdout.write(`gateway benchmark: ${connections} connections, ${rounds} interleaved rounds of ${durationS}s (medians), capture on (Redis ${redisUrl})\n\n`);
    process.stdout.write('body    | direct rps (p99) | /proxy rps (p99) | forward rps (p99) | plain http-proxy rps (p99) | /proxy:direct | /proxy:plain | forward:direct | forward:plain\n');
    for (const r of report) {
      process.stdout.write(
        `${r.size.padEnd(7)} | ${cell(r.directRps, r.p99Ms.direct)} | ${cell(r.proxyRps, r.p99Ms.proxy)} | ${cell(r.forwardRps, r.p99Ms.forward)}  | ${cell(r.plainHttpProxyRps, r.p99Ms.plainHttpProxy)}           | ${pct(r.proxyVsDirect)}        | ${x(r.proxyVsPlainHttpProxy)}       | ${pct(r.forwardVsDirect)}         | ${x(r.forwardVsPlainHttpProxy)}\n`,
      );
    }
    for (const r of report) process.stdout.write(`rounds rps ${r.size}: ${JSON.stringify(r.roundsRps)}; failed requests: ${JSON.stringify(r.failedRequests)}\n`);
    for (const r of report) process.stdout.write(`CPU µs per request ${r.size} (the serving process only; independent of other load): ${JSON.stringify(r.cpuUsPerRequest)}\n`);
    for (const r of report) if (r.compare) process.stdout.write(`compare ${r.size} (${r.compare.main}): /proxy rps ${r.compare.proxyRps} ${JSON.stringify(r.compare.roundsRps)}, CPU ${r.compare.cpuUsPerRequest} µs/request, :direct ${pct(r.compare.compareVsDirect)}, :plain ${x(r.compare.compareVsPlainHttpProxy)}; this build / compare = ${x(r.compare.proxyVsCompare)}\n`);
    const c = metrics.capture;
    process.stdout.write(`\ncapture: published ${c.published}, spooled ${c.spooled}, replayed ${c.replayed}, dropped ${c.dropped}, buffered ${c.buffered}\n`);
    const ok = report.every((r) => r.proxyVsDirect >= 0.25 && r.proxyVsPlainHttpProxy >= 1.5);
    process.stdout.write(`targets (/proxy >= 25% of direct and >= 1.5x plain http-proxy): ${ok ? 'met' : 'NOT met'}\n`);
  }
  rmSync(spoolDir, { recursive: true, force: true });
}

function ratio(a, b) {
  return b > 0 ? Math.round((a / b) * 1000) / 1000 : 0;
}
function pct(r) {
  return `${Math.round(r * 100)}%`.padStart(4);
}
function x(r) {
  return `${r.toFixed(2)}x`.padStart(5);
}
function cell(rps, p99) {
  return `${String(rps).padStart(6)} (${String(p99).padStart(3)} ms)`;
}
async function freePort() {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}
async function cleanup() {
  // Wait for the children (a gateway flushes its buffered events on SIGTERM) before deleting the keys.
  const exited = children.filter((c) => c.exitCode === null && c.signalCode === null).map((c) => new Promise((resolve) => c.once('exit', resolve)));
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await Promise.race([Promise.all(exited), new Promise((resolve) => setTimeout(resolve, 15000).unref())]);
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await redis.connect();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
  } catch {}
  redis.disconnect();
}

main()
  .catch((err) => {
    process.stderr.write(`benchmark failed: ${err.stack}\n`);
    process.exitCode = 1;
  })
  .finally(cleanup);
