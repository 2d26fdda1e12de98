#!/usr/bin/env node
// Scenario 3 — pipeline: does the traffic-logger keep up with the gateway under sustained load?
//
// Default mode (gateway): for one and then two logger instances, each on a fresh database and Redis prefix,
// autocannon drives the gateway's `/proxy?url=` to a bare upstream for BENCH_DURATION_S with capture on
// (gateway → Redis stream → logger(s) → PostgreSQL). Every second it samples the stream backlog of the
// logger group (XINFO GROUPS: lag = entries not yet delivered, plus pending = delivered, not acked), the
// rows stored and the loggers' RSS. Reported: events/s offered (the gateway's req/s) and stored while
// under load, the backlog as a time series with a verdict (flat or growing: mean of the last third of the
// samples vs the first third), the time to drain what is left after the load, and the end-to-end lag of
// each exchange from its response to its row: `stored_at` (the inserting transaction's now()) minus
// `started_at + duration_ms`, p50 / p99 / max over every row of the run.
//
// Mode xadd (`--mode xadd`, the former benchmark): XADDs N synthetic events (the gateway's wire format) as
// fast as Redis takes them, then times until every row is stored: the loggers' capacity without the
// gateway competing for the CPU.
//
// Needs a build (npm run build), PostgreSQL and Redis on loopback (bench/lib/infra.mjs). Writes
// bench/results/pipeline.{md,json}. Exits 2 when the backlog grows or the load fails to drain.
//
//   node services/traffic-logger/bench/pipeline.mjs [--mode gateway|xadd] [--instances 1,2] [--events 50000] [--body-bytes 512]
//
// Env knobs:
//   BENCH_DURATION_S     sustained load seconds per instance count (default 60)
//   BENCH_CONNECTIONS    autocannon connections through the gateway (default 16)
//   BENCH_BODY_BYTES     the upstream's response body size (default 512)
//   BENCH_DRAIN_S        longest wait for the backlog to drain after the load (default 60)
//   BENCH_LOGGER_MAIN    the logger build to run (default this service's dist/main.js; A/B of two builds)
//   BENCH_LOGGER_NODE_ARGS  node flags for the loggers (e.g. "--require ./bench/lib/profile/mem-sample.cjs")
//   BENCH_MAX_S          bound of the whole run (default 900)
//   BENCH_DATABASE_URL, BENCH_REDIS_URL   as in bench/lib/infra.mjs
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startBareServer } from '../../../bench/lib/bare-server.mjs';
import { createBenchDatabase, createBenchRedisPrefix } from '../../../bench/lib/infra.mjs';
import { round, runAutocannon } from '../../../bench/lib/load.mjs';
import { boundRuntime, freePort, readRssMb, sleep, startProcess, waitHealthy } from '../../../bench/lib/process.mjs';
import { checksTable, describeMachine, envNumber, log, machineLine, repoRoot, table, writeResults } from '../../../bench/lib/results.mjs';

const require = createRequire(path.join(repoRoot, 'package.json'));
const Redis = require('ioredis');
const pg = require('pg');

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []));
const mode = args.mode ?? 'gateway';
if (!['gateway', 'xadd'].includes(mode)) throw new Error(`--mode must be gateway or xadd, got ${mode}`);
const instanceCounts = String(args.instances ?? '1,2').split(',').map(Number);
const eventCount = Number(args.events ?? 50000);
const bodyBytes = Number(args['body-bytes'] ?? envNumber('BENCH_BODY_BYTES', 512));
const durationS = envNumber('BENCH_DURATION_S', 60);
const connections = envNumber('BENCH_CONNECTIONS', 16);
const drainS = envNumber('BENCH_DRAIN_S', 60);
const loggerMain = process.env.BENCH_LOGGER_MAIN ?? path.join(repoRoot, 'services/traffic-logger/dist/main.js');
const loggerNodeArgs = (process.env.BENCH_LOGGER_NODE_ARGS ?? '').split(' ').filter(Boolean);
const gatewayMain = path.join(repoRoot, 'services/proxy-gateway/dist/main.js');
const GROUP = 'traffic-logger';
const UPSTREAM_PATH = '/orders/42?expand=items';
boundRuntime('pipeline benchmark', envNumber('BENCH_MAX_S', 900));

/** CPU time (user + system, µs) a process has used so far, from /proc (Linux); undefined elsewhere. */
function cpuMicros(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100; // utime + stime in clock ticks (100/s)
  } catch {
    return undefined;
  }
}

/**
 * Backlog of the logger group in stream entries: not yet delivered (lag) plus delivered but not acked
 * (pending). The gateway's entries carry batches of events; `--mode xadd` writes one event per entry.
 */
async function backlog(redis, stream) {
  const groups = await redis.xinfo('GROUPS', stream).catch(() => []);
  for (const g of groups) {
    const info = {};
    for (let i = 0; i + 1 < g.length; i += 2) info[g[i]] = g[i + 1];
    if (info.name !== GROUP) continue;
    const pending = Number(info.pending);
    // lag is null when Redis cannot tell (after trimming past undelivered entries): fall back to XLEN minus read
    const lag = info.lag === null || info.lag === undefined ? Math.max(0, (await redis.xlen(stream)) - Number(info['entries-read'] ?? 0)) : Number(info.lag);
    return { lag, pending, backlog: lag + pending };
  }
  return { lag: 0, pending: 0, backlog: 0 };
}

/** Flat or growing: the last third's mean backlog vs the first third's, allowing one batch or one second of traffic. */
export function backlogVerdict(series, eventsPerSec, batchSize = 500) {
  if (series.length < 3) return { verdict: 'too short', firstMean: NaN, lastMean: NaN };
  const third = Math.floor(series.length / 3);
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const firstMean = mean(series.slice(0, third));
  const lastMean = mean(series.slice(-third));
  const allowance = Math.max(batchSize, eventsPerSec);
  return { verdict: lastMean - firstMean > allowance ? 'growing' : 'flat', firstMean: Math.round(firstMean), lastMean: Math.round(lastMean), allowance: Math.round(allowance) };
}

function startLogger(env, name, i) {
  const proc = startProcess(`logger-${i}`, process.execPath, [...loggerNodeArgs, loggerMain], { cwd: repoRoot, env: { ...process.env, ...env, TRAFFIC_CONSUMER_NAME: name } });
  return proc;
}

async function startLoggers(instances, env, tag) {
  const loggers = [];
  for (let i = 0; i < instances; i++) {
    const port = await freePort();
    const proc = startLogger({ ...env, LOGGER_PORT: String(port) }, `bench-${tag}-${i}`, i);
    loggers.push(proc);
    await waitHealthy(proc, `http://127.0.0.1:${port}/health/ready`, { timeoutMs: 60000, intervalMs: 50 });
  }
  return loggers;
}

async function stopAll(procs) {
  await Promise.all(procs.map((p) => p.stop()));
}

/** Events the gateway has put on the stream so far (its capture counters, every worker summed). */
async function gatewayPublished(port) {
  const res = await fetch(`http://127.0.0.1:${port}/health/ready`);
  const { capture } = await res.json();
  return (capture?.published ?? 0) + (capture?.replayed ?? 0);
}

async function countRows(client) {
  const { rows } = await client.query('SELECT count(*)::int AS n FROM exchanges');
  return rows[0].n;
}

/** End-to-end lag per row: stored_at − (started_at + duration), in ms. */
async function lagStats(client) {
  const { rows } = await client.query(`
    SELECT percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY lag) AS p, max(lag) AS max, count(*)::int AS n
    FROM (SELECT extract(epoch FROM stored_at - started_at) * 1000 - coalesce(duration_ms, 0) AS lag FROM exchanges) x`);
  const [p50, p99] = rows[0].p ?? [null, null];
  return { p50Ms: round(p50, 0), p99Ms: round(p99, 0), maxMs: round(Number(rows[0].max), 0), rows: rows[0].n };
}

/**
 * A fresh database and Redis prefix with `instances` loggers on them; `fn` gets them (and may add its own
 * processes to `procs`); everything is stopped and dropped afterwards.
 */
async function withLoggers(label, instances, fn) {
  const db = createBenchDatabase(label);
  const rp = createBenchRedisPrefix(label);
  const redis = new Redis(rp.url);
  const pgClient = new pg.Client({ connectionString: db.url });
  const procs = [];
  try {
    await pgClient.connect();
    const env = { DATABASE_URL: db.url, REDIS_URL: rp.url, REDIS_PREFIX: rp.prefix, LOG_LEVEL: 'WARN', TRAFFIC_RETENTION_MAX_AGE: 'off', TRAFFIC_RETENTION_MAX_ROWS: '0' };
    const loggers = await startLoggers(instances, env, rp.prefix);
    procs.push(...loggers);
    return await fn({ env, loggers, procs, redis, pgClient, stream: `${rp.prefix}:traffic` });
  } finally {
    await stopAll(procs.reverse());
    redis.disconnect();
    await pgClient.end().catch(() => undefined);
    db.drop();
    rp.cleanup();
  }
}

async function runGateway(instances, upstream) {
  const spoolDir = mkdtempSync(path.join(os.tmpdir(), 'bench-pipeline-'));
  try {
    return await withLoggers(`pipeline${instances}`, instances, async ({ env, loggers, procs, redis, pgClient, stream }) => {
      const [gwPort, fwdPort] = [await freePort(), await freePort()];
      const gateway = startProcess('proxy-gateway', process.execPath, [gatewayMain], {
        cwd: repoRoot,
        env: { ...process.env, ...env, SERVER_PORT: String(gwPort), SERVICE_PROXY_PORT: String(fwdPort), CAPTURE_SPOOL_DIR: spoolDir },
      });
      procs.push(gateway);
      await waitHealthy(gateway, `http://127.0.0.1:${gwPort}/health/live`, { timeoutMs: 30000 });

      log(`pipeline: ${instances} logger(s), ${durationS} s through the gateway`);
      const samples = [];
      const cpuBefore = loggers.map((l) => cpuMicros(l.pid));
      const rowsBefore = await countRows(pgClient);
      const t0 = performance.now();
      let sampling = true;
      const sampler = (async () => {
        let next = t0 + 1000;
        while (sampling) {
          await sleep(Math.max(0, next - performance.now()));
          next += 1000;
          if (!sampling) break;
          const entries = await backlog(redis, stream);
          const published = await gatewayPublished(gwPort);
          const rows = await countRows(pgClient);
          // In events: published to the stream by the gateway and not stored yet.
          const events = Math.max(0, published - (rows - rowsBefore));
          samples.push({ t: Math.round((performance.now() - t0) / 1000), backlog: events, backlogEntries: entries.backlog, rows, rssMb: loggers.map((l) => round(readRssMb(l.pid) ?? NaN, 1)) });
        }
      })();
      const load = await runAutocannon({ url: `http://127.0.0.1:${gwPort}/proxy?url=${encodeURIComponent(upstream + UPSTREAM_PATH)}`, connections, durationS });
      sampling = false;
      await sampler;
      const tLoadEnd = performance.now();
      const rowsAtLoadEnd = await countRows(pgClient);
      const cpuAtLoadEnd = loggers.map((l) => cpuMicros(l.pid));
      // drain: every captured exchange stored (the gateway publishes one event per request) and the backlog empty
      const expected = rowsBefore + load.requests;
      let rowsNow = rowsAtLoadEnd;
      let after = await backlog(redis, stream);
      while ((rowsNow < expected || after.backlog > 0) && performance.now() - tLoadEnd < drainS * 1000) {
        await sleep(100);
        rowsNow = await countRows(pgClient);
        after = await backlog(redis, stream);
      }
      const drainMs = rowsNow >= expected && after.backlog === 0 ? Math.round(performance.now() - tLoadEnd) : null;
      for (const l of loggers) if (l.child.exitCode !== null || l.child.signalCode !== null) throw new Error(`${l.name} exited during the run:\n${l.output().slice(-2000)}`);
      const loadS = (tLoadEnd - t0) / 1000;
      const storedDuringLoad = rowsAtLoadEnd - rowsBefore;
      const cpuUs = cpuAtLoadEnd.reduce((a, c, i) => a + (c - cpuBefore[i]), 0);
      const series = samples.map((s) => s.backlog);
      const offeredPerSec = load.requests / loadS;
      const verdict = backlogVerdict(series, offeredPerSec);
      const lag = await lagStats(pgClient);
      return {
        instances,
        requests: load.requests,
        offeredPerSec: Math.round(offeredPerSec),
        storedPerSec: Math.round(storedDuringLoad / loadS),
        storedVsOffered: round(storedDuringLoad / load.requests, 3),
        gatewayP99Ms: load.p99Ms,
        rowsStored: rowsNow - rowsBefore,
        drainMs,
        backlogAfterDrain: after.backlog,
        backlog: { ...verdict, max: Math.max(0, ...series), samples: series },
        lag,
        loggerCpuUsPerEvent: Number.isFinite(cpuUs) && storedDuringLoad > 0 ? Math.round(cpuUs / storedDuringLoad) : undefined,
        loggerMaxRssMb: loggers.map((_, i) => Math.max(0, ...samples.map((s) => s.rssMb[i] ?? 0))),
        samples,
      };
    });
  } finally {
    rmSync(spoolDir, { recursive: true, force: true });
  }
}

function makeEvent(i) {
  const body = 'x'.repeat(bodyBytes);
  return JSON.stringify({
    id: randomUUID(),
    startedAt: new Date().toISOString(),
    durationMs: 3 + (i % 50),
    source: 'proxy',
    method: i % 4 === 0 ? 'POST' : 'GET',
    url: `http://api.example.test/orders/${i}?expand=items`,
    request: { headers: { host: 'api.example.test', accept: 'application/json', 'user-agent': 'bench' }, body: i % 4 === 0 ? { encoding: 'utf8', data: body, size: bodyBytes, truncated: false, contentType: 'text/plain' } : undefined },
    response: { status: i % 10 === 0 ? 500 : 200, statusMessage: 'OK', headers: { 'content-type': 'text/plain', 'content-length': String(bodyBytes) }, body: { encoding: 'utf8', data: body, size: bodyBytes, truncated: false, contentType: 'text/plain' } },
  });
}

async function runXadd(instances) {
  return withLoggers(`pipelinex${instances}`, instances, async ({ loggers, redis, pgClient, stream }) => {
    log(`pipeline (xadd): ${instances} logger(s), ${eventCount} events`);
    const cpuBefore = loggers.map((l) => cpuMicros(l.pid));
    const t0 = performance.now();
    for (let i = 0; i < eventCount; i += 1000) {
      const p = redis.pipeline();
      for (let j = i; j < Math.min(i + 1000, eventCount); j++) p.xadd(stream, 'MAXLEN', '~', 1000000, '*', 'event', makeEvent(j));
      await p.exec();
    }
    const tPublished = performance.now();
    let stored = 0;
    let maxRss = loggers.map(() => 0);
    while ((stored = await countRows(pgClient)) < eventCount) {
      if (performance.now() - t0 > drainS * 5000) throw new Error(`only ${stored} of ${eventCount} stored after ${drainS * 5} s`);
      maxRss = loggers.map((l, i) => Math.max(maxRss[i], readRssMb(l.pid) ?? 0));
      await sleep(20);
    }
    const tStored = performance.now();
    const cpuUs = loggers.reduce((a, l, i) => a + (cpuMicros(l.pid) - cpuBefore[i]), 0);
    return {
      instances,
      events: eventCount,
      publishPerSec: Math.round(eventCount / ((tPublished - t0) / 1000)),
      storedPerSec: Math.round(eventCount / ((tStored - t0) / 1000)),
      totalMs: Math.round(tStored - t0),
      backlogAfter: (await backlog(redis, stream)).backlog,
      loggerCpuUsPerEvent: Number.isFinite(cpuUs) ? Math.round(cpuUs / eventCount) : undefined,
      loggerMaxRssMb: maxRss.map((x) => round(x, 1)),
    };
  });
}

function gatewayMarkdown(results, machine, when) {
  const one = results.find((r) => r.instances === 1);
  const two = results.find((r) => r.instances === 2);
  const checks = results.map((r) => ({
    target: `${r.instances} logger(s) keep up with the gateway at full load: backlog flat (last third vs first third of the samples)`,
    value: `${r.backlog.verdict} (${r.backlog.firstMean} → ${r.backlog.lastMean} events)`,
    threshold: `growth <= ${r.backlog.allowance}`,
    met: r.backlog.verdict === 'flat',
  }));
  for (const r of results) checks.push({ target: `${r.instances} logger(s): every captured exchange stored`, value: `${r.rowsStored} of ${r.requests}`, threshold: 'all, within BENCH_DRAIN_S', met: r.rowsStored >= r.requests });
  const series = results.map((r) => `- ${r.instances} logger(s), backlog (events) each second: ${r.backlog.samples.join(' ')}`);
  return [
    '## Pipeline (scenario 3)',
    '',
    `${when} — ${machineLine(machine)} at the end. Command: \`node services/traffic-logger/bench/pipeline.mjs\` (BENCH_DURATION_S=${durationS}).`,
    '',
    `Sustained load through the gateway for ${durationS} s per instance count: autocannon, ${connections} connections, \`GET /proxy?url=\` to a bare node:http upstream (${bodyBytes}-byte JSON body), capture on (gateway → Redis stream → logger(s) → PostgreSQL), a fresh database and Redis prefix per count. Offered = the gateway's req/s (one event each); stored = rows added during the load / its duration. Backlog = events the gateway has published to the stream (its capture counters) and the loggers have not stored yet, sampled every second (the stream's entries each carry a batch of events, so XINFO GROUPS lag + pending counts batches); verdict: the mean of the last third of the samples against the first third (growing when it rose by more than one batch or one second of traffic). Lag = the row's \`stored_at\` (its insert transaction's now()) minus the exchange's \`started_at + duration_ms\`, over every row. Logger CPU per stored event from /proc (independent of other load).`,
    '',
    table(
      ['loggers', 'offered events/s', 'stored events/s', 'stored / offered', 'backlog first → last third', 'backlog max', 'verdict', 'drain after load ms', 'lag p50 ms', 'lag p99 ms', 'lag max ms', 'logger CPU µs/event', 'logger max RSS MB'],
      results.map((r) => [r.instances, r.offeredPerSec, r.storedPerSec, r.storedVsOffered, `${r.backlog.firstMean} → ${r.backlog.lastMean}`, r.backlog.max, r.backlog.verdict, r.drainMs ?? 'not drained', r.lag.p50Ms, r.lag.p99Ms, r.lag.maxMs, r.loggerCpuUsPerEvent, r.loggerMaxRssMb.join(' / ')]),
      ['---:', '---:', '---:', '---:', '---:', '---:', '---', '---:', '---:', '---:', '---:', '---:', '---:'],
    ),
    '',
    ...series,
    ...(one && two ? ['', `Two loggers / one, stored events/s: ${round(two.storedPerSec / one.storedPerSec, 2)} (both keep up when the gateway is the bottleneck: compare the verdicts and lags; \`--mode xadd\` measures the loggers' capacity alone).`] : []),
    '',
    checksTable(checks),
    '',
  ].join('\n');
}

function xaddMarkdown(results, machine, when) {
  const one = results.find((r) => r.instances === 1);
  const two = results.find((r) => r.instances === 2);
  return [
    '## Pipeline (scenario 3, xadd mode)',
    '',
    `${when} — ${machineLine(machine)} at the end. Command: \`node services/traffic-logger/bench/pipeline.mjs --mode xadd --events ${eventCount}\`.`,
    '',
    `${eventCount} synthetic events (${bodyBytes}-byte bodies) XADDed as fast as Redis takes them, timed until every row is stored; a fresh database and prefix per instance count.`,
    '',
    table(
      ['loggers', 'events', 'published/s', 'stored events/s', 'total ms', 'backlog after', 'logger CPU µs/event', 'logger max RSS MB'],
      results.map((r) => [r.instances, r.events, r.publishPerSec, r.storedPerSec, r.totalMs, r.backlogAfter, r.loggerCpuUsPerEvent, r.loggerMaxRssMb.join(' / ')]),
      ['---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:'],
    ),
    ...(one && two ? ['', `Two loggers / one, stored events/s: ${round(two.storedPerSec / one.storedPerSec, 2)}.`] : []),
    '',
  ].join('\n');
}

async function main() {
  for (const main of [loggerMain, ...(mode === 'gateway' ? [gatewayMain] : [])]) if (!existsSync(main)) throw new Error(`${main} is not built: run npm run build first`);
  const results = [];
  let upstream;
  try {
    if (mode === 'gateway') {
      const body = JSON.stringify({ id: 42, items: 'x'.repeat(Math.max(0, bodyBytes - 24)) });
      upstream = await startBareServer({ [UPSTREAM_PATH]: { status: 200, contentType: 'application/json', body } });
    }
    for (const n of instanceCounts) {
      const r = mode === 'gateway' ? await runGateway(n, upstream.url) : await runXadd(n);
      log(JSON.stringify({ ...r, samples: undefined }));
      results.push(r);
    }
  } finally {
    await upstream?.stop();
  }
  const machine = describeMachine();
  const when = new Date().toISOString();
  const report = { scenario: 'pipeline', mode, when, machine, settings: { durationS, connections, bodyBytes, drainS, instanceCounts, eventCount, loggerMain }, results };
  if (mode === 'gateway') {
    writeResults('pipeline', report, gatewayMarkdown(results, machine, when));
    if (results.some((r) => r.backlog.verdict !== 'flat' || r.rowsStored < r.requests)) process.exitCode = 2;
  } else {
    writeResults('pipeline-xadd', report, xaddMarkdown(results, machine, when));
  }
}

main().then(() => process.exit(process.exitCode ?? 0), (err) => {
  log(`pipeline benchmark failed: ${err.stack ?? err}`);
  process.exit(1);
});
