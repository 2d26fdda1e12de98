#!/usr/bin/env node
// Scenario 5 — the hub: (a) a stub fan-out to 10 engines, timed from the POST until every per-engine result
// is done, beside the same imports sent straight to the 10 engines at once; (b) latency of a management
// call through the hub (GET /hub/admin/mappings) beside the same call on the engine (GET /__admin/mappings)
// and a bare node:http server returning the engine's bytes.
//
// Starts (loopback, free ports): hub-api (built dist) against a fresh PostgreSQL database (created with psql
// on the server of BENCH_DATABASE_URL, migrated, dropped at the end) and a unique Redis key prefix (deleted
// at the end); 10 engine processes (one is the hub's local engine, 9 are registered through the registry).
// Every process it started is killed by PID on exit, also on failure.
//
// Env knobs:
//   BENCH_ENGINES          engines in the fleet (default 10)
//   BENCH_FANOUT_STUBS     comma-separated stub counts per fan-out (default 100,1000)
//   BENCH_ROUNDS           rounds per measurement (default 5)
//   BENCH_LATENCY_CALLS    sequential calls per target per round for the latency figures (default 300)
//   BENCH_LATENCY_STUBS    stubs on the engine while its listing is timed (default 20)
//   BENCH_DATABASE_URL     PostgreSQL server to create the database on (default postgresql://postgres@127.0.0.1:5432/test)
//   BENCH_REDIS_URL        Redis (default redis://127.0.0.1:6379)
//   BENCH_FANOUT_TIMEOUT_S longest one fan-out may take before the run fails (default 120)
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startBareServer } from './lib/bare-server.mjs';
import { createBenchDatabase, createBenchRedisPrefix } from './lib/infra.mjs';
import { median, percentile, round, sampleLatency, spread } from './lib/load.mjs';
import { freePort, sleep, startProcess, waitHealthy } from './lib/process.mjs';
import { checksTable, describeMachine, envNumber, log, machineLine, repoRoot, table, writeResults } from './lib/results.mjs';

const engineCount = envNumber('BENCH_ENGINES', 10);
const fanoutSizes = (process.env.BENCH_FANOUT_STUBS ?? '100,1000').split(',').map(Number);
const rounds = envNumber('BENCH_ROUNDS', 5);
const latencyCalls = envNumber('BENCH_LATENCY_CALLS', 300);
const latencyStubs = envNumber('BENCH_LATENCY_STUBS', 20);
const fanoutTimeoutMs = envNumber('BENCH_FANOUT_TIMEOUT_S', 120) * 1000;

async function call(method, url, body) {
  const res = await fetch(url, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined, signal: AbortSignal.timeout(60000) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : undefined;
}

/** N stubs with fixed ids, so every round (hub or direct) overwrites the same stubs instead of adding more. */
function buildStubs(count, label) {
  return Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    request: { method: 'GET', urlPath: `/bench/${label}/${i}` },
    response: { status: 200, headers: { 'Content-Type': 'application/json' }, jsonBody: { i, label } },
  }));
}

async function startEngine(index, tempDirs) {
  const port = await freePort();
  const rootDir = mkdtempSync(path.join(os.tmpdir(), `bench-hub-engine${index}-`));
  tempDirs.push(rootDir);
  const env = { ...process.env, ENGINE_PORT: String(port), ENGINE_ROOT_DIR: rootDir, ENGINE_NAME: `bench-${index}`, LOG_LEVEL: 'WARN' };
  delete env.REDIS_URL; // the engines do not publish traffic or self-register here: the hub registers them
  delete env.HUB_URL;
  const proc = startProcess(`engine ${index}`, process.execPath, [path.join(repoRoot, 'services/engine/dist/main.js')], { cwd: repoRoot, env });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(proc, `${url}/__admin/health`, { timeoutMs: 60000 });
  return { url, proc };
}

async function fanoutOnce(hubUrl, stubs) {
  const t0 = process.hrtime.bigint();
  const started = await call('POST', `${hubUrl}/hub/admin/fanout`, { all: true, mappings: stubs });
  const deadline = Date.now() + fanoutTimeoutMs;
  for (;;) {
    const status = await call('GET', `${hubUrl}/hub/admin/fanout/${started.id}`);
    if (status.state !== 'running') {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (status.state !== 'completed') throw new Error(`fan-out ${started.id} ended ${status.state}: ${JSON.stringify(status.results.filter((r) => r.state !== 'completed')).slice(0, 800)}`);
      if (status.results.length !== engineCount) throw new Error(`fan-out reached ${status.results.length} engines, expected ${engineCount}`);
      return ms;
    }
    if (Date.now() > deadline) throw new Error(`fan-out ${started.id} still running after ${fanoutTimeoutMs} ms`);
    await sleep(10);
  }
}

async function directOnce(engines, stubs) {
  const t0 = process.hrtime.bigint();
  await Promise.all(engines.map((e) => call('POST', `${e.url}/__admin/mappings/import`, { mappings: stubs, importOptions: { duplicatePolicy: 'OVERWRITE' } })));
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

async function main() {
  for (const svc of ['engine', 'hub-api']) {
    if (!existsSync(path.join(repoRoot, `services/${svc}/dist/main.js`))) throw new Error(`services/${svc} is not built: run npm run build first`);
  }
  const deadlineAt = Date.now() + 15 * 60 * 1000; // the whole scenario is bounded
  const tempDirs = [];
  const started = [];
  const db = createBenchDatabase('hub');
  const redis = createBenchRedisPrefix('hub');
  try {
    log(`starting ${engineCount} engines`);
    const engines = [];
    for (let i = 0; i < engineCount; i++) {
      const e = await startEngine(i, tempDirs);
      engines.push(e);
      started.push(e.proc);
    }
    const hubPort = await freePort();
    const hubUrl = `http://127.0.0.1:${hubPort}`;
    const hub = startProcess('hub-api', process.execPath, [path.join(repoRoot, 'services/hub-api/dist/main.js')], {
      cwd: repoRoot,
      env: { ...process.env, HUB_PORT: String(hubPort), DATABASE_URL: db.url, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, LOCAL_ENGINE_URL: engines[0].url, LOGGER_URL: 'http://127.0.0.1:9', LOG_LEVEL: 'WARN' },
    });
    started.push(hub);
    await waitHealthy(hub, `${hubUrl}/health/ready`, { timeoutMs: 60000 });
    for (let i = 1; i < engines.length; i++) await call('POST', `${hubUrl}/hub/admin/registry/servers`, { name: `bench-${i}`, url: engines[i].url });
    const servers = await call('GET', `${hubUrl}/hub/admin/registry/servers`);
    if (servers.length !== engineCount) throw new Error(`hub lists ${servers.length} engines, expected ${engineCount}`);

    // (a) fan-out, hub vs direct, interleaved rounds after one warm-up each
    const fanout = [];
    for (const size of fanoutSizes) {
      const stubs = buildStubs(size, `fanout${size}`);
      log(`fan-out of ${size} stubs to ${engineCount} engines`);
      await fanoutOnce(hubUrl, stubs);
      await directOnce(engines, stubs);
      const hubMs = [];
      const directMs = [];
      for (let r = 0; r < rounds; r++) {
        if (Date.now() > deadlineAt) throw new Error('hub scenario exceeded its 15-minute bound');
        const order = r % 2 ? ['direct', 'hub'] : ['hub', 'direct'];
        for (const which of order) {
          if (which === 'hub') hubMs.push(await fanoutOnce(hubUrl, stubs));
          else directMs.push(await directOnce(engines, stubs));
        }
        log(`  round ${r + 1}: hub ${hubMs.at(-1).toFixed(0)} ms, direct ${directMs.at(-1).toFixed(0)} ms`);
      }
      // every engine now holds the stubs exactly once (ids fixed, OVERWRITE)
      const listing = await call('GET', `${engines[engineCount - 1].url}/__admin/mappings?limit=1`);
      if (listing.meta.total < size) throw new Error(`engine ${engineCount - 1} holds ${listing.meta.total} stubs after the fan-out of ${size}`);
      fanout.push({
        stubs: size,
        hubMs: round(median(hubMs), 1),
        hubSpread: round(spread(hubMs), 2),
        directMs: round(median(directMs), 1),
        directSpread: round(spread(directMs), 2),
        hubOverDirect: round(median(hubMs.map((h, i) => h / directMs[i])), 2),
        stubsPerSecondViaHub: Math.round((size * engineCount) / (median(hubMs) / 1000)),
        roundsHubMs: hubMs.map((x) => round(x, 1)),
        roundsDirectMs: directMs.map((x) => round(x, 1)),
      });
    }

    // (b) management call latency: hub vs engine vs bare, same bytes on the engine and the bare server
    await call('POST', `${engines[0].url}/__admin/mappings/import`, { mappings: buildStubs(latencyStubs, 'latency'), importOptions: { duplicatePolicy: 'OVERWRITE', deleteAllNotInImport: true } });
    const engineListing = await fetch(`${engines[0].url}/__admin/mappings`);
    const bare = await startBareServer({ '/__admin/mappings': { status: 200, contentType: engineListing.headers.get('content-type'), body: await engineListing.text() } });
    started.push(bare.proc);
    const targets = [
      { key: 'hub', url: `${hubUrl}/hub/admin/mappings` },
      // naming the engine skips the hub's lookup of the active engine in PostgreSQL: shows that lookup's share
      { key: 'hub-local', url: `${hubUrl}/hub/admin/mappings`, headers: { 'X-Hub-Target-Server': 'local' } },
      { key: 'engine', url: `${engines[0].url}/__admin/mappings` },
      { key: 'bare', url: `${bare.url}/__admin/mappings` },
    ];
    const samples = Object.fromEntries(targets.map((t) => [t.key, []]));
    const perRoundP50 = Object.fromEntries(targets.map((t) => [t.key, []]));
    for (const t of targets) await sampleLatency(t.url, { count: 50, headers: t.headers }); // warm-up
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < targets.length; i++) {
        const t = targets[(i + r) % targets.length];
        const s = await sampleLatency(t.url, { count: latencyCalls, headers: t.headers });
        samples[t.key].push(...s);
        perRoundP50[t.key].push(median(s));
      }
      log(`  latency round ${r + 1}: ${targets.map((t) => `${t.key} p50 ${perRoundP50[t.key].at(-1).toFixed(2)} ms`).join(', ')}`);
    }
    const latency = targets.map((t) => ({
      target: { hub: 'hub GET /hub/admin/mappings (active engine)', 'hub-local': 'hub, with X-Hub-Target-Server: local', engine: 'engine GET /__admin/mappings', bare: 'bare node:http, same bytes' }[t.key],
      p50Ms: round(percentile(samples[t.key], 50), 2),
      p99Ms: round(percentile(samples[t.key], 99), 2),
      p50Spread: round(spread(perRoundP50[t.key]), 2),
      calls: samples[t.key].length,
    }));
    const ratioP50 = (a, b) => round(median(perRoundP50[a].map((x, i) => x / perRoundP50[b][i])), 2);
    const hubOverEngineP50 = ratioP50('hub', 'engine');
    const engineRow = latency[targets.findIndex((t) => t.key === 'engine')];
    const hubOverEngineP99 = round(latency[0].p99Ms / engineRow.p99Ms, 2);

    const machine = describeMachine();
    const report = { scenario: 'hub', when: new Date().toISOString(), machine, settings: { engineCount, fanoutSizes, rounds, latencyCalls, latencyStubs }, fanout, latency, ratios: { hubOverEngineP50, hubOverEngineP99, hubLocalOverEngineP50: ratioP50('hub-local', 'engine'), engineOverBareP50: ratioP50('engine', 'bare') } };
    const md = [
      '## Hub (scenario 5)',
      '',
      `${report.when} — ${machineLine(machine)} at the end. Command: \`node bench/hub.mjs\` (${engineCount} engine processes, hub-api on PostgreSQL + Redis, ${rounds} rounds).`,
      '',
      `Fan-out: \`POST /hub/admin/fanout {all: true}\` to ${engineCount} engines, timed until \`GET /hub/admin/fanout/{id}\` says every per-engine job completed (polled every 10 ms), beside the same import sent by the client straight to all ${engineCount} engines at once (\`POST /__admin/mappings/import\`, in parallel). Median of rounds; spread = (max - min) / median.`,
      '',
      table(
        ['stubs', 'via hub ms', 'spread', 'direct to engines ms', 'spread', 'hub / direct', 'stubs/s delivered via hub'],
        fanout.map((f) => [f.stubs, f.hubMs, f.hubSpread, f.directMs, f.directSpread, f.hubOverDirect, f.stubsPerSecondViaHub]),
        ['---:', '---:', '---:', '---:', '---:', '---:', '---:'],
      ),
      '',
      `Management call latency: ${latencyCalls} sequential calls per target per round over one keep-alive connection, ${latencyStubs} stubs listed; the bare server returns the engine's exact bytes.`,
      '',
      table(['target', 'p50 ms', 'p99 ms', 'p50 spread', 'calls'], latency.map((l) => [l.target, l.p50Ms, l.p99Ms, l.p50Spread, l.calls]), ['---', '---:', '---:', '---:', '---:']),
      '',
      `Hub / engine direct: p50 ×${hubOverEngineP50} (median of per-round ratios), p99 ×${hubOverEngineP99}; added p50 ${round(latency[0].p50Ms - engineRow.p50Ms, 2)} ms; naming the engine (\`X-Hub-Target-Server: local\`, no active-engine lookup in PostgreSQL) p50 ×${report.ratios.hubLocalOverEngineP50}. Engine / bare p50 ×${report.ratios.engineOverBareP50}.`,
      '',
      checksTable([
        { target: `fan-out of ${fanoutSizes.at(-1)} stubs to ${engineCount} engines completes (every per-engine job done)`, value: `${fanout.at(-1).hubMs} ms`, threshold: 'all completed', met: true },
      ]),
      '',
    ].join('\n');
    writeResults('hub', report, md);
  } finally {
    for (const p of started.reverse()) await p.stop();
    for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
    db.drop();
    redis.cleanup();
  }
}

// exit explicitly: a child's open pipe must not keep the benchmark alive (the exit handler kills leftovers)
main().then(() => process.exit(process.exitCode ?? 0), (err) => {
  log(`hub benchmark failed: ${err.stack ?? err}`);
  process.exit(1);
});
