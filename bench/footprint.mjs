#!/usr/bin/env node
// Scenario 6 — footprint: each service started as a process (built dist, as `npm run stack` runs them), its
// time from spawn to healthy, its RSS idle, its highest RSS through a sustained load run and its RSS after
// it; every figure beside a bare node:http server measured the same way in the same run. RSS comes from
// /proc/<pid>/smaps_rollup (a service's processes — the gateway runs workers — with every page counted once; their
// VmRSS summed is reported beside it), sampled every 250 ms. Target: every service stays under 300 MB throughout,
// the engine with its request journal on (bounded by ENGINE_JOURNAL_MAX_ENTRIES).
//
// The load, all at once for BENCH_DURATION_S: GETs through the gateway (`/proxy?url=` → the engine's stub,
// captured → Redis stream → traffic-logger → PostgreSQL), GETs straight to the engine (journal on), a
// trickle of management calls through the hub and of reads of the traffic log, and a light load on the
// bare server. Loopback only; a fresh PostgreSQL database (psql, dropped at the end) and Redis key prefix
// (deleted at the end); every process started is killed by PID on exit, also on failure.
//
// Env knobs:
//   BENCH_DURATION_S     sustained load seconds (default 60)
//   BENCH_IDLE_S         seconds after start-up before the idle RSS is read (default 5)
//   BENCH_SETTLE_S       seconds after the load before the "after" RSS is read (default 10)
//   BENCH_CONNECTIONS    connections through the gateway and to the engine, each (default 16)
//   BENCH_JOURNAL_MAX    the engine's journal bound, ENGINE_JOURNAL_MAX_ENTRIES (default 10000, the engine's default)
//   BENCH_STUBS          other stubs loaded on the engine (default 1000)
//   BENCH_RSS_LIMIT_MB   the target (default 300)
//   BENCH_DATABASE_URL, BENCH_REDIS_URL   as in bench/lib/infra.mjs
//   BENCH_MAX_S          bound of the whole run (default 900)
//   BENCH_PROFILE        name of one service to profile: it gets BENCH_NODE_ARGS and its output goes to stderr
//   BENCH_NODE_ARGS      node flags for that service (default "--trace-gc"; e.g. "--heap-prof --heap-prof-dir=/tmp/p", or
//                        "--require ./bench/lib/profile/mem-sample.cjs --require ./bench/lib/profile/alloc-profile.cjs")
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startBareServer } from './lib/bare-server.mjs';
import { createBenchDatabase, createBenchRedisPrefix } from './lib/infra.mjs';
import { round, runAutocannon } from './lib/load.mjs';
import { boundRuntime, freePort, halvesMax, readMemory, sampleRss, sleep, startProcess, waitHealthy } from './lib/process.mjs';
import { checksTable, describeMachine, envNumber, log, machineLine, repoRoot, table, writeResults } from './lib/results.mjs';
import { TARGET_BODY, TARGET_PATH, buildStubs } from './engine/targets.mjs';

const durationS = envNumber('BENCH_DURATION_S', 60);
const idleS = envNumber('BENCH_IDLE_S', 5);
const settleS = envNumber('BENCH_SETTLE_S', 10);
const connections = envNumber('BENCH_CONNECTIONS', 16);
const journalMax = envNumber('BENCH_JOURNAL_MAX', 10000);
const stubCount = envNumber('BENCH_STUBS', 1000);
const limitMb = envNumber('BENCH_RSS_LIMIT_MB', 300);
boundRuntime('footprint benchmark', envNumber('BENCH_MAX_S', 900));

const url = (port) => `http://127.0.0.1:${port}`;

async function main() {
  for (const svc of ['engine', 'traffic-logger', 'hub-api', 'proxy-gateway']) {
    if (!existsSync(path.join(repoRoot, `services/${svc}/dist/main.js`))) throw new Error(`services/${svc} is not built: run npm run build first`);
  }
  const webServer = path.join(repoRoot, 'web/.next/standalone/web/server.js');
  const ports = {};
  for (const k of ['SERVER_PORT', 'SERVICE_PROXY_PORT', 'ENGINE_PORT', 'LOGGER_PORT', 'HUB_PORT', 'WEB_PORT']) ports[k] = await freePort();
  const db = createBenchDatabase('footprint');
  const redis = createBenchRedisPrefix('footprint');
  const tempDir = mkdtempSync(path.join(os.tmpdir(), 'bench-footprint-'));
  const base = { ...process.env, DATABASE_URL: db.url, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, LOG_LEVEL: 'WARN', NEXT_TELEMETRY_DISABLED: '1' };
  delete base.HUB_URL;
  const profiled = process.env.BENCH_PROFILE;
  const profileArgs = (process.env.BENCH_NODE_ARGS ?? '--trace-gc').split(' ').filter(Boolean);
  // the services in the stack's start order (scripts/stack.mjs), each started once the one before is healthy
  const services = [
    { name: 'engine', main: 'services/engine/dist/main.js', env: { ENGINE_PORT: String(ports.ENGINE_PORT), ENGINE_ROOT_DIR: path.join(tempDir, 'engine'), ENGINE_JOURNAL_ENABLED: 'true', ENGINE_JOURNAL_MAX_ENTRIES: String(journalMax) }, health: `${url(ports.ENGINE_PORT)}/__admin/health` },
    { name: 'traffic-logger', main: 'services/traffic-logger/dist/main.js', env: { LOGGER_PORT: String(ports.LOGGER_PORT) }, health: `${url(ports.LOGGER_PORT)}/health/ready` },
    { name: 'hub-api', main: 'services/hub-api/dist/main.js', env: { HUB_PORT: String(ports.HUB_PORT), LOCAL_ENGINE_URL: url(ports.ENGINE_PORT), LOGGER_URL: url(ports.LOGGER_PORT) }, health: `${url(ports.HUB_PORT)}/health/ready` },
    ...(existsSync(webServer) ? [{ name: 'web', script: webServer, cwd: path.join(repoRoot, 'web'), env: { PORT: String(ports.WEB_PORT), HOSTNAME: '127.0.0.1', GATEWAY_URL: url(ports.SERVER_PORT) }, health: `${url(ports.WEB_PORT)}/` }] : []),
    {
      name: 'proxy-gateway', main: 'services/proxy-gateway/dist/main.js',
      env: { SERVER_PORT: String(ports.SERVER_PORT), SERVICE_PROXY_PORT: String(ports.SERVICE_PROXY_PORT), LOGGER_URL: url(ports.LOGGER_PORT), HUB_API_URL: url(ports.HUB_PORT), WEB_URL: url(ports.WEB_PORT), CAPTURE_SPOOL_DIR: path.join(tempDir, 'spool') },
      health: `${url(ports.SERVER_PORT)}/health/ready`,
    },
  ];
  const notes = existsSync(webServer) ? [] : ['web not built (web/.next/standalone): not measured'];
  const running = [];
  try {
    // the baseline first: a bare node:http server, timed and sampled the same way
    const bare = await startBareServer({ [TARGET_PATH]: { status: 200, contentType: 'application/json', body: TARGET_BODY } });
    running.push(bare.proc);
    const rows = [{ name: 'bare node:http (baseline)', proc: bare.proc, startMs: null }];
    rows[0].startMs = await waitHealthy(bare.proc, `${bare.url}/__bare_health__`);
    for (const svc of services) {
      log(`starting ${svc.name}`);
      const nodeArgs = profiled === svc.name ? profileArgs : [];
      const proc = startProcess(svc.name, process.execPath, [...nodeArgs, svc.script ?? path.join(repoRoot, svc.main)], { cwd: svc.cwd ?? repoRoot, env: { ...base, ...svc.env }, echo: profiled === svc.name });
      running.push(proc);
      const startMs = await waitHealthy(proc, svc.health, { timeoutMs: 90000, intervalMs: 25 });
      log(`  healthy after ${startMs.toFixed(0)} ms`);
      rows.push({ name: svc.name, proc, startMs });
    }
    const engineUrl = url(ports.ENGINE_PORT);
    const res = await fetch(`${engineUrl}/__admin/mappings/import`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mappings: buildStubs(stubCount) }) });
    if (res.status >= 300) throw new Error(`engine import: ${res.status}`);
    await sleep(idleS * 1000);
    for (const r of rows) {
      const m = readMemory(r.proc.pid);
      r.idleMb = m?.rss;
      r.processes = m?.processes;
    }

    log(`sustained load for ${durationS} s`);
    const sampler = sampleRss(rows.map((r) => ({ name: r.name, pid: r.proc.pid })));
    const proxied = `${url(ports.SERVER_PORT)}/proxy?url=${encodeURIComponent(engineUrl + TARGET_PATH)}`;
    const [gateway, engine, hub, logger, bareLoad] = await Promise.all([
      runAutocannon({ url: proxied, connections, durationS }),
      runAutocannon({ url: engineUrl + TARGET_PATH, connections, durationS }),
      runAutocannon({ url: `${url(ports.HUB_PORT)}/hub/admin/mappings?limit=20`, connections: 1, durationS }),
      runAutocannon({ url: `${url(ports.LOGGER_PORT)}/api/requests?size=20`, connections: 1, durationS }),
      runAutocannon({ url: bare.url + TARGET_PATH, connections: 2, durationS }),
    ]);
    const during = sampler.stop();
    const after = sampleRss(rows.map((r) => ({ name: r.name, pid: r.proc.pid })));
    await sleep(settleS * 1000);
    const settled = after.stop();
    for (const r of rows) {
      r.maxMb = Math.max(during.max[r.name], settled.max[r.name]);
      r.maxSummedMb = Math.max(during.maxSummed[r.name], settled.maxSummed[r.name]);
      r.afterMb = settled.last[r.name];
      r.halves = halvesMax(during.series[r.name]);
    }
    // a service that died under load (e.g. out of memory) would otherwise just stop being sampled
    for (const r of rows) {
      if (r.proc.child.exitCode !== null || r.proc.child.signalCode !== null) {
        throw new Error(`${r.name} exited during the load run (${r.proc.child.exitCode ?? r.proc.child.signalCode}):\n${r.proc.output().slice(-2000)}`);
      }
    }
    const journal = await (await fetch(`${engineUrl}/__admin/requests?limit=1`)).json();
    const load = {
      gatewayProxy: { rps: Math.round(gateway.rps), p99Ms: gateway.p99Ms, requests: gateway.requests },
      engineDirect: { rps: Math.round(engine.rps), p99Ms: engine.p99Ms, requests: engine.requests },
      hubManagement: { rps: Math.round(hub.rps), requests: hub.requests },
      loggerReads: { rps: Math.round(logger.rps), requests: logger.requests },
      bare: { rps: Math.round(bareLoad.rps), requests: bareLoad.requests },
    };
    const journalTotal = journal.meta?.total;
    if (journalTotal === undefined || journalTotal > journalMax) notes.push(`engine journal holds ${journalTotal} entries, bound ${journalMax}`);

    const bareRow = rows[0];
    const table1 = rows.map((r) => ({
      service: r.name,
      startMs: Math.round(r.startMs),
      idleMb: round(r.idleMb, 1),
      maxMb: round(r.maxMb, 1),
      processes: r.processes,
      maxSummedMb: round(r.maxSummedMb, 1),
      afterMb: round(r.afterMb, 1),
      firstHalfMaxMb: round(r.halves.first, 1),
      secondHalfMaxMb: round(r.halves.second, 1),
      maxVsBare: r === bareRow ? 1 : round(r.maxMb / bareRow.maxMb, 1),
      underLimit: r.maxMb < limitMb,
    }));
    // Memory a service still gains in the second half of the load would go on past the run's end: say so.
    for (const r of table1) {
      if (r.secondHalfMaxMb > r.firstHalfMaxMb * 1.1) notes.push(`${r.service}: RSS still rising through the load (max ${r.firstHalfMaxMb} MB in its first half, ${r.secondHalfMaxMb} MB in its second): run longer (BENCH_DURATION_S) before trusting its max`);
    }
    const machine = describeMachine();
    const report = { scenario: 'footprint', when: new Date().toISOString(), machine, settings: { durationS, idleS, settleS, connections, journalMax, stubCount, limitMb }, services: table1, load, journalTotal, notes };
    const checks = table1.filter((r) => r.service !== bareRow.name).map((r) => ({ target: `${r.service}: RSS < ${limitMb} MB through the load run`, value: `${r.maxMb} MB`, threshold: `${limitMb} MB`, met: r.underLimit }));
    checks.push({ target: `engine journal bounded (ENGINE_JOURNAL_MAX_ENTRIES=${journalMax})`, value: `${journalTotal} entries after ${load.engineDirect.requests + load.gatewayProxy.requests} requests`, threshold: `<= ${journalMax}`, met: journalTotal <= journalMax });
    const md = [
      '## Footprint (scenario 6)',
      '',
      `${report.when} — ${machineLine(machine)} at the end. Command: \`node bench/footprint.mjs\` (BENCH_DURATION_S=${durationS}).`,
      '',
      `Each service started as a process (built dist), one after the other; start-up = spawn to first healthy answer. Idle RSS ${idleS} s after the last start (engine holding ${stubCount + 2} stubs); max = highest RSS sampled every 250 ms through ${durationS} s of load and ${settleS} s after; halves = the highest in the first and in the second half of the load (a second half more than 10% above the first is noted below the table: memory still rising); after = ${settleS} s after the load. RSS of a service that runs as several processes (the gateway's workers) counts each page once: their private pages plus the pages they share with other processes (the node binary, ~45 MB each process maps) once, from /proc/<pid>/smaps_rollup; "max VmRSS summed" adds up each process's own VmRSS, shared pages once per process. Load, all at once: ${connections} connections through the gateway's \`/proxy?url=\` to the engine (captured → Redis → logger → PostgreSQL): ${load.gatewayProxy.rps} req/s; ${connections} connections straight to the engine (journal on, bound ${journalMax}): ${load.engineDirect.rps} req/s; 1 connection of \`GET /hub/admin/mappings\` (${load.hubManagement.rps} req/s) and of \`GET /api/requests\` (${load.loggerReads.rps} req/s); 2 connections to the bare server.`,
      '',
      table(
        ['service', 'start-up ms', 'idle RSS MB', 'max RSS MB', 'halves MB', 'after MB', 'max vs bare', `< ${limitMb} MB`, 'processes', 'max VmRSS summed MB'],
        table1.map((r) => [r.service, r.startMs, r.idleMb, r.maxMb, `${r.firstHalfMaxMb} → ${r.secondHalfMaxMb}`, r.afterMb, r.maxVsBare, r.underLimit ? 'yes' : 'NO', r.processes, r.maxSummedMb]),
        ['---', '---:', '---:', '---:', '---:', '---:', '---:', '---', '---:', '---:'],
      ),
      '',
      checksTable(checks),
      ...(notes.length ? ['', ...notes.map((n) => `- ${n}`)] : []),
      '',
    ].join('\n');
    writeResults('footprint', report, md);
    if (checks.some((c) => c.met === false)) process.exitCode = 2;
  } finally {
    for (const p of running.reverse()) await p.stop();
    rmSync(tempDir, { recursive: true, force: true });
    db.drop();
    redis.cleanup();
  }
}

// exit explicitly: a child's open pipe must not keep the benchmark alive (the exit handler kills leftovers)
main().then(() => process.exit(process.exitCode ?? 0), (err) => {
  log(`footprint benchmark failed: ${err.stack ?? err}`);
  process.exit(1);
});
