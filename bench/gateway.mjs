#!/usr/bin/env node
// Gateway throughput benchmark, one run, every figure measured against the same upstream:
//   direct                 autocannon -> upstream
//   /proxy (capture on)    autocannon -> gateway :port/proxy?url=… -> upstream, events XADDed to Redis
//                          (the gateway as configured by default: proxy.workers=auto, one process per CPU up to 4)
//   /proxy, 1 worker       the same with PROXY_WORKERS=1 (one Node process), for comparison
//   forward proxy          autocannon -> gateway forward-proxy port (absolute-form) -> upstream
//   plain http-proxy       autocannon -> a bare http-proxy-3 pass-through (no keep-alive agent, no capture)
//   WireMock as proxy      autocannon -> WireMock 3 (the `wiremock` npm package's jar) with a proxyBaseUrl stub
//   mockttp as proxy       autocannon -> mockttp with a thenForwardTo(upstream) rule
// for a small body and a 100 KiB body, then the added latency at half of /proxy's maximum rate: p99 of
// /proxy minus p99 of direct, both driven at the same rate, evenly paced (bench/lib/load.mjs runPaced). Ratios are the figures: /proxy vs direct
// (target >= 25%), vs plain http-proxy (>= 1.5x), vs WireMock as proxy (>= 2x); p99 added < 5 ms.
// Writes bench/results/gateway.{json,md}.
//
// Needs: a build (npx tsc -b tsconfig.json) and a Redis (REDIS_URL, default redis://127.0.0.1:6379).
// Options (env): BENCH_DURATION_S (default 5), BENCH_ROUNDS (default 3), BENCH_CONNECTIONS (default 32),
// BENCH_SIZES (default small,100KiB), BENCH_LARGE_JSON=1 (100 KiB JSON body), BENCH_JSON=1 for JSON only,
// BENCH_PEERS=0 (skip WireMock and mockttp), BENCH_WIREMOCK_WARMUP_S (default 10: the JVM's JIT),
// BENCH_COMPARE_MAIN=<path to another build's services/proxy-gateway/dist/main.js>
// adds that gateway's /proxy as another target in the same interleaved rounds (A/B of two builds on a
// shared machine: compare the two /proxy figures of one run, not figures of different runs), its p99 added at
// half load too; BENCH_COMPARE_NODE_ARGS="--flag …" starts it with those node flags (alone: this build, A/B of
// node flags). The targets
// are measured in interleaved rounds and each figure is the
// median of its rounds, so a burst of load from another process skews one round, not one target.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWireMock } from './engine/targets.mjs';
import { median, percentile, runPaced, sampleLatency } from './lib/load.mjs';
import { childPids } from './lib/process.mjs';
import { checksTable, describeMachine, machineLine, table, writeResults } from './lib/results.mjs';

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
function startChild(args, env = {}, stdio = ['ignore', 'inherit', 'inherit', 'ipc']) {
  const child = spawn(process.execPath, args, { cwd: join(root, 'services/proxy-gateway'), env: { ...process.env, ...env }, stdio });
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
    const own = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    // a gateway with worker processes: count the whole tree
    return childPids(pid).reduce((sum, child) => sum + (cpuMsOf(child) ?? 0), own);
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
  for (const { pid: _pid, warmupS, ...opts } of Object.values(targets)) await run({ ...opts, duration: warmupS ?? 2 });
  const samples = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, { warmupS: _w, ...opts }] of Object.entries(targets)) samples[name].push(await measureOnce(opts));
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

/**
 * p99 added by the gateway at a fixed rate (half of /proxy's maximum): direct and /proxy driven at the same
 * rate, evenly paced (`runPaced`: one request every 1/rate s, latency from when it was due), in interleaved
 * rounds; the median per-round difference of their p99s. Not autocannon's `overallRate`, which sends each
 * second's requests in a burst at full speed at its start. A warm-up round of each (2 s, not counted) first: the
 * rounds before were at saturation, and the first paced round after them carried the gateway's capture backlog.
 */
async function addedLatencyAt(rate, direct, viaProxy) {
  const p99 = { direct: [], proxy: [], p50Direct: [], p50Proxy: [] };
  for (const target of [direct, viaProxy]) await runPaced(target.url, { rate, durationS: Math.min(2, durationS), connections });
  for (let round = 0; round < rounds; round++) {
    const d = await runPaced(direct.url, { rate, durationS, connections });
    const p = await runPaced(viaProxy.url, { rate, durationS, connections });
    p99.direct.push(d.p99Ms);
    p99.proxy.push(p.p99Ms);
    p99.p50Direct.push(d.p50Ms);
    p99.p50Proxy.push(p.p50Ms);
  }
  const added = p99.proxy.map((v, i) => Math.round((v - p99.direct[i]) * 100) / 100);
  // Medians of an even number of rounds are means of two: rounded, so tables do not print 2.3600000000000003.
  const ms = (xs) => Math.round(median(xs) * 100) / 100;
  return { rate, p99DirectMs: ms(p99.direct), p99ProxyMs: ms(p99.proxy), p50DirectMs: ms(p99.p50Direct), p50ProxyMs: ms(p99.p50Proxy), addedP99Ms: ms(added), roundsAddedP99Ms: added };
}

/**
 * Runs `fn` with the peers' processes stopped (SIGSTOP, then SIGCONT): the latency rounds compare direct and
 * /proxy alone. A JVM that has just served a load round goes on compiling and collecting for seconds: with
 * WireMock running, the first half-load round of /proxy stalled for 136–139 ms in two runs out of two
 * (2026-11-25; the same rounds without peers 1.5–2.2 ms added), a figure of WireMock's, not the gateway's.
 */
async function withPaused(pids, fn) {
  const paused = pids.filter((pid) => pid && signal(pid, 'SIGSTOP'));
  try {
    return await fn();
  } finally {
    for (const pid of paused) signal(pid, 'SIGCONT');
  }
}

function signal(pid, name) {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false; // gone already
  }
}

/** Latency one client sees, one request at a time (nothing else running): direct and /proxy, interleaved in blocks. */
async function addedLatencyUnloaded(directUrl, proxyUrl) {
  const direct = [];
  const proxy = [];
  for (let block = 0; block < 4; block++) {
    direct.push(...(await sampleLatency(directUrl, { count: 500 })));
    proxy.push(...(await sampleLatency(proxyUrl, { count: 500 })));
  }
  const at = (xs, p) => Math.round(percentile(xs, p) * 100) / 100;
  return { requests: direct.length, p50DirectMs: at(direct, 50), p99DirectMs: at(direct, 99), p50ProxyMs: at(proxy, 50), p99ProxyMs: at(proxy, 99), addedP50Ms: Math.round((at(proxy, 50) - at(direct, 50)) * 100) / 100, addedP99Ms: Math.round((at(proxy, 99) - at(direct, 99)) * 100) / 100 };
}

async function startGateway(env) {
  const [port, fwdPort] = [await freePort(), await freePort()];
  const child = startChild([gatewayMain], {
    SERVER_PORT: String(port),
    SERVICE_PROXY_PORT: String(fwdPort),
    REDIS_URL: redisUrl,
    // Keep the shared Redis small: 100 KiB bodies are captured in full.
    CAPTURE_STREAM_MAX_LENGTH: '500',
    LOG_LEVEL: 'WARN',
    ...env,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/health/live`);
  return { url, proxyPort: fwdPort, pid: child.pid };
}

/** WireMock 3 from the npm package's jar, one stub proxying everything to the upstream; undefined + note when unavailable. */
async function startWireMockProxy(upstream, notes) {
  const wm = await startWireMock(root, 0);
  if (wm.skipped) {
    notes.push(`WireMock as proxy skipped: ${wm.skipped}`);
    return undefined;
  }
  peers.push(wm);
  const res = await fetch(`${wm.url}/__admin/mappings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ request: { method: 'ANY', urlPattern: '/.*' }, response: { proxyBaseUrl: upstream } }) });
  if (!res.ok) {
    notes.push(`WireMock as proxy skipped: its mapping was refused (${res.status})`);
    return undefined;
  }
  return wm;
}

/** mockttp in its own process forwarding everything to the upstream; undefined + note when unavailable. */
async function startMockttpProxy(upstream, notes) {
  if (!existsSync(join(root, 'node_modules/mockttp/package.json'))) {
    notes.push('mockttp as proxy skipped: mockttp is not installed under node_modules');
    return undefined;
  }
  const port = await freePort();
  const child = startChild([join(root, 'bench/lib/mockttp-proxy.mjs'), String(port), upstream], {}, ['ignore', 'pipe', 'inherit', 'ipc']);
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  const deadline = Date.now() + 60000;
  while (!output.includes('ready')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      notes.push('mockttp as proxy skipped: it did not start');
      return undefined;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const { version } = JSON.parse(readFileSync(join(root, 'node_modules/mockttp/package.json'), 'utf8'));
  return { name: `mockttp ${version}`, url: `http://127.0.0.1:${port}`, pid: child.pid };
}

const peers = [];

async function main() {
  const spoolDir = mkdtempSync(join(tmpdir(), 'bench-spool-'));
  const notes = [];
  const upstreamPort = await startScript(UPSTREAM);
  const upstream = `http://127.0.0.1:${upstreamPort}`;
  const plainPort = await startScript(PLAIN_PROXY, { TARGET: upstream });
  const [upstreamChild, plainChild] = children;
  const gateway = await startGateway({ REDIS_PREFIX: prefix, CAPTURE_SPOOL_DIR: join(spoolDir, 'default') });
  const single = await startGateway({ REDIS_PREFIX: `${prefix}-1w`, CAPTURE_SPOOL_DIR: join(spoolDir, 'single'), PROXY_WORKERS: '1' });
  const workers = (await (await fetch(`${gateway.url}/health/ready`)).json()).capture.workers?.count ?? 1;
  // relative to where the bench was started (the children run in services/proxy-gateway)
  const compareNodeArgs = (process.env.BENCH_COMPARE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const compareMain = process.env.BENCH_COMPARE_MAIN ? resolve(process.env.BENCH_COMPARE_MAIN) : compareNodeArgs.length ? gatewayMain : undefined;
  let compare;
  if (compareMain) {
    const [port, fwdPort] = [await freePort(), await freePort()];
    const child = startChild([...compareNodeArgs, compareMain], { SERVER_PORT: String(port), SERVICE_PROXY_PORT: String(fwdPort), REDIS_URL: redisUrl, REDIS_PREFIX: `${prefix}-b`, CAPTURE_SPOOL_DIR: join(spoolDir, 'compare'), CAPTURE_STREAM_MAX_LENGTH: '500', LOG_LEVEL: 'WARN' });
    compare = { url: `http://127.0.0.1:${port}`, pid: child.pid };
    await waitForHttp(`${compare.url}/health/live`);
  }
  const withPeers = process.env.BENCH_PEERS !== '0';
  const wireMock = withPeers ? await startWireMockProxy(upstream, notes) : undefined;
  const mockttp = withPeers ? await startMockttpProxy(upstream, notes) : undefined;
  if (!withPeers) notes.push('WireMock and mockttp not measured (BENCH_PEERS=0)');
  const wireMockWarmupS = Number(process.env.BENCH_WIREMOCK_WARMUP_S ?? 10);

  const rows = [];
  const sizes = (process.env.BENCH_SIZES ?? 'small,100KiB').split(',');
  for (const [size, path] of [
    ['small', '/small'],
    ['100KiB', '/large'],
  ].filter(([size]) => sizes.includes(size))) {
    const targets = {
      direct: { url: `${upstream}${path}`, pid: upstreamChild.pid },
      viaProxy: { url: `${gateway.url}/proxy?url=${encodeURIComponent(`${upstream}${path}`)}`, pid: gateway.pid },
      viaProxy1: { url: `${single.url}/proxy?url=${encodeURIComponent(`${upstream}${path}`)}`, pid: single.pid },
      forward: { url: `http://127.0.0.1:${gateway.proxyPort}`, requests: [{ method: 'GET', path: `${upstream}${path}` }], pid: gateway.pid },
      plain: { url: `http://127.0.0.1:${plainPort}${path}`, pid: plainChild.pid },
      ...(wireMock ? { wireMock: { url: `${wireMock.url}${path}`, pid: wireMock.pid, warmupS: wireMockWarmupS } } : {}),
      ...(mockttp ? { mockttp: { url: `${mockttp.url}${path}`, pid: mockttp.pid } } : {}),
      ...(compare ? { compareProxy: { url: `${compare.url}/proxy?url=${encodeURIComponent(`${upstream}${path}`)}`, pid: compare.pid } } : {}),
    };
    const m = await measureAll(targets);
    const rate = Math.max(1, Math.round(m.viaProxy.rps / 2));
    const { halfLoad, unloaded } = await withPaused([wireMock?.pid, mockttp?.pid], async () => {
      const halfLoad = await addedLatencyAt(rate, targets.direct, targets.viaProxy);
      if (compare) halfLoad.compare = await addedLatencyAt(rate, targets.direct, targets.compareProxy);
      return { halfLoad, unloaded: await addedLatencyUnloaded(targets.direct.url, targets.viaProxy.url) };
    });
    rows.push({ size, ...m, halfLoad, unloaded });
  }
  const metrics = await (await fetch(`${gateway.url}/health/ready`)).json();

  const report = rows.map(({ size, direct, viaProxy, viaProxy1, forward, plain, wireMock: wm, mockttp: mt, compareProxy, halfLoad, unloaded }) => ({
    size,
    directRps: direct.rps,
    proxyRps: viaProxy.rps,
    proxy1WorkerRps: viaProxy1.rps,
    forwardRps: forward.rps,
    plainHttpProxyRps: plain.rps,
    wireMockProxyRps: wm?.rps,
    mockttpProxyRps: mt?.rps,
    p99Ms: { direct: direct.p99Ms, proxy: viaProxy.p99Ms, proxy1Worker: viaProxy1.p99Ms, forward: forward.p99Ms, plainHttpProxy: plain.p99Ms, wireMockProxy: wm?.p99Ms, mockttpProxy: mt?.p99Ms },
    proxyVsDirect: ratio(viaProxy.rps, direct.rps),
    proxy1WorkerVsDirect: ratio(viaProxy1.rps, direct.rps),
    forwardVsDirect: ratio(forward.rps, direct.rps),
    proxyVsPlainHttpProxy: ratio(viaProxy.rps, plain.rps),
    proxy1WorkerVsPlainHttpProxy: ratio(viaProxy1.rps, plain.rps),
    forwardVsPlainHttpProxy: ratio(forward.rps, plain.rps),
    proxyVsWireMockProxy: wm ? ratio(viaProxy.rps, wm.rps) : undefined,
    proxyVsMockttpProxy: mt ? ratio(viaProxy.rps, mt.rps) : undefined,
    halfLoad,
    unloaded,
    failedRequests: { direct: direct.non2xx, proxy: viaProxy.non2xx, proxy1Worker: viaProxy1.non2xx, forward: forward.non2xx, plainHttpProxy: plain.non2xx, wireMockProxy: wm?.non2xx, mockttpProxy: mt?.non2xx },
    roundsRps: { direct: direct.roundsRps, proxy: viaProxy.roundsRps, proxy1Worker: viaProxy1.roundsRps, forward: forward.roundsRps, plainHttpProxy: plain.roundsRps, wireMockProxy: wm?.roundsRps, mockttpProxy: mt?.roundsRps },
    cpuUsPerRequest: { upstreamDirect: direct.cpuUsPerRequest, gatewayProxy: viaProxy.cpuUsPerRequest, gatewayProxy1Worker: viaProxy1.cpuUsPerRequest, gatewayForward: forward.cpuUsPerRequest, plainHttpProxy: plain.cpuUsPerRequest },
    ...(compareProxy
      ? { compare: { main: compareMain, nodeArgs: compareNodeArgs, halfLoad: halfLoad.compare, proxyRps: compareProxy.rps, roundsRps: compareProxy.roundsRps, cpuUsPerRequest: compareProxy.cpuUsPerRequest, proxyVsCompare: ratio(viaProxy.rps, compareProxy.rps), compareVsDirect: ratio(compareProxy.rps, direct.rps), compareVsPlainHttpProxy: ratio(compareProxy.rps, plain.rps) } }
      : {}),
  }));
  const checks = report.flatMap((r) => [
    { target: `${r.size}: /proxy >= 25% of direct`, value: pct(r.proxyVsDirect).trim(), threshold: '25%', met: r.proxyVsDirect >= 0.25 },
    { target: `${r.size}: /proxy >= 1.5x plain http-proxy`, value: x(r.proxyVsPlainHttpProxy).trim(), threshold: '1.5x', met: r.proxyVsPlainHttpProxy >= 1.5 },
    { target: `${r.size}: /proxy >= 2x WireMock as proxy`, value: r.proxyVsWireMockProxy === undefined ? undefined : x(r.proxyVsWireMockProxy).trim(), threshold: '2x', met: r.proxyVsWireMockProxy === undefined ? null : r.proxyVsWireMockProxy >= 2 },
    { target: `${r.size}: p99 added at half of /proxy's max rate < 5 ms`, value: `${r.halfLoad.addedP99Ms} ms`, threshold: '5 ms', met: r.halfLoad.addedP99Ms < 5 },
  ]);
  const summary = { machine: describeMachine(), connections, durationS, rounds, workers, peers: { wireMock: wireMock?.name, mockttp: mockttp?.name }, notes, capture: metrics.capture, results: report, checks };
  if (process.env.BENCH_JSON) {
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  } else {
    const c = metrics.capture;
    const md = [
      '## Gateway',
      '',
      `${machineLine()}. autocannon, ${connections} connections, ${rounds} interleaved rounds of ${durationS} s after a warm-up (WireMock ${wireMockWarmupS} s); medians. Capture on: every exchange XADDed to Redis (${redisUrl}). /proxy = the gateway as configured by default (proxy.workers=auto: ${workers} worker processes here); "1 worker" = PROXY_WORKERS=1. Peers: plain http-proxy-3 pass-through; ${wireMock?.name ?? 'WireMock (not measured)'} with one proxyBaseUrl stub; ${mockttp?.name ?? 'mockttp (not measured)'} with a thenForwardTo rule.`,
      '',
      table(
        ['body', 'direct rps', '/proxy rps', '1 worker', 'forward proxy', 'plain http-proxy', 'WireMock proxy', 'mockttp proxy', '/proxy:direct', '1 worker:direct', '/proxy:plain', '/proxy:WireMock', '/proxy:mockttp'],
        report.map((r) => [r.size, r.directRps, r.proxyRps, r.proxy1WorkerRps, r.forwardRps, r.plainHttpProxyRps, r.wireMockProxyRps ?? 'n/a', r.mockttpProxyRps ?? 'n/a', pct(r.proxyVsDirect).trim(), pct(r.proxy1WorkerVsDirect).trim(), x(r.proxyVsPlainHttpProxy).trim(), r.proxyVsWireMockProxy === undefined ? 'n/a' : x(r.proxyVsWireMockProxy).trim(), r.proxyVsMockttpProxy === undefined ? 'n/a' : x(r.proxyVsMockttpProxy).trim()]),
      ),
      '',
      'Latency at half of /proxy\'s maximum rate (the same rate for both, evenly paced, latency from when each request was due; median of rounds; WireMock and mockttp paused):',
      '',
      table(
        ['body', 'rate req/s', 'direct p50 / p99 ms', '/proxy p50 / p99 ms', 'p99 added ms'],
        report.map((r) => [r.size, r.halfLoad.rate, `${r.halfLoad.p50DirectMs} / ${r.halfLoad.p99DirectMs}`, `${r.halfLoad.p50ProxyMs} / ${r.halfLoad.p99ProxyMs}`, r.halfLoad.addedP99Ms]),
      ),
      '',
      'Latency of one client, one request at a time (no other load, the peers paused; 2,000 requests each, in interleaved blocks):',
      '',
      table(
        ['body', 'direct p50 / p99 ms', '/proxy p50 / p99 ms', 'added p50 / p99 ms'],
        report.map((r) => [r.size, `${r.unloaded.p50DirectMs} / ${r.unloaded.p99DirectMs}`, `${r.unloaded.p50ProxyMs} / ${r.unloaded.p99ProxyMs}`, `${r.unloaded.addedP50Ms} / ${r.unloaded.addedP99Ms}`]),
      ),
      '',
      `CPU µs per request (the serving process tree only): ${report.map((r) => `${r.size} ${JSON.stringify(r.cpuUsPerRequest)}`).join('; ')}.`,
      `Capture: published ${c.published}, spooled ${c.spooled}, replayed ${c.replayed}, dropped ${c.dropped}, buffered ${c.buffered}. Failed requests: ${report.map((r) => `${r.size} ${JSON.stringify(r.failedRequests)}`).join('; ')}.`,
      ...notes.map((n) => `Note: ${n}.`),
      ...report.filter((r) => r.compare).map((r) => `Compare ${r.size} (${[...r.compare.nodeArgs, r.compare.main].join(' ')}): /proxy rps ${r.compare.proxyRps} ${JSON.stringify(r.compare.roundsRps)}, CPU ${r.compare.cpuUsPerRequest} µs/request, :direct ${pct(r.compare.compareVsDirect)}, :plain ${x(r.compare.compareVsPlainHttpProxy)}, p99 added at half load ${r.compare.halfLoad.addedP99Ms} ms ${JSON.stringify(r.compare.halfLoad.roundsAddedP99Ms)} (this build ${r.halfLoad.addedP99Ms} ms ${JSON.stringify(r.halfLoad.roundsAddedP99Ms)}); this build / compare = ${x(r.compare.proxyVsCompare)}.`),
      '',
      checksTable(checks),
    ].join('\n');
    writeResults('gateway', summary, md);
  }
  rmSync(spoolDir, { recursive: true, force: true });
}

function ratio(a, b) {
  return b > 0 ? Math.round((a / b) * 1000) / 1000 : 0;
}
/** One decimal: a ratio of 0.247 against a 25% target must not print as "25%". */
function pct(r) {
  return `${(r * 100).toFixed(1)}%`.padStart(6);
}
function x(r) {
  return `${r.toFixed(2)}x`.padStart(5);
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
  for (const peer of peers) await peer.stop?.().catch(() => {});
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
