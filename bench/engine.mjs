#!/usr/bin/env node
// Scenario 1 — the engine: requests/s, p50 and p99 of
//   - a matched stub with 10, 1,000 and 10,000 other stubs loaded (distinct urlPaths, request journal on),
//   - a templated response (`transformers: ["response-template"]`, path segment + query + method rendered),
//   - an unmatched request (the engine computes the near-miss report for its 404),
// the last two with the --case-stubs count of other stubs (default 1,000). Beside, in the same run: a bare
// node:http server returning the same bytes for each case (the baseline every ratio is against), mockttp
// (npm, own process, same rules) and WireMock 3 (the `wiremock` npm package's jar; Java 17). A peer that
// is not installed or does not start is skipped with a visible note.
//
// Bare, engines and mockttp run at once, each in its own process, measured in interleaved rounds (order
// rotated each round) so the drifting load of a shared machine hits all alike; WireMock afterwards, one JVM
// at a time (an idle JVM still burns CPU). Loopback only; every process started is killed by PID on exit.
//
//   node bench/engine.mjs [--duration=4] [--rounds=5] [--warmup=2] [--wiremock-warmup=10] [--connections=32]
//                         [--counts=10,1000,10000] [--case-stubs=1000] [--no-wiremock] [--no-mockttp] [--cpu-prof]
// Env knobs: BENCH_MAX_S (default 1800) bounds the whole run.
//
// Needs the engine built (`npm run build`). Writes bench/results/engine.{json,md}; exits 2 if a target is missed.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { startBareServer } from './lib/bare-server.mjs';
import { measureInterleaved, ratioOf, runAutocannon, summarize } from './lib/load.mjs';
import { boundRuntime } from './lib/process.mjs';
import { checksTable, describeMachine, envNumber, log, machineLine, repoRoot, table, writeResults } from './lib/results.mjs';
import { TARGET_BODY, TARGET_PATH, TEMPLATED_BODY, TEMPLATED_PATH, UNMATCHED_PATH, startEngine, startMockttp, startWireMock } from './engine/targets.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
);
const durationS = Number(args.duration ?? 4);
const rounds = Number(args.rounds ?? 5);
const warmupS = Number(args.warmup ?? 2);
const connections = Number(args.connections ?? 32);
const counts = (args.counts ?? '10,1000,10000').split(',').map(Number);
const caseCount = Number(args['case-stubs'] ?? 1000);
const withWireMock = args['no-wiremock'] !== 'true';
const withMockttp = args['no-mockttp'] !== 'true';
const cpuProf = args['cpu-prof'] === 'true';
// the JVM needs longer than Node to reach its steady state (JIT); WireMock is a peer for scale, not a target
const wireMockWarmupS = Number(args['wiremock-warmup'] ?? 10);
boundRuntime('engine benchmark', envNumber('BENCH_MAX_S', 1800));

const CASES = {
  matched: { path: TARGET_PATH, label: 'matched stub' },
  templated: { path: TEMPLATED_PATH, label: 'templated response' },
  unmatched: { path: UNMATCHED_PATH, label: 'unmatched (near-miss 404)' },
};
// what each server answers to the unmatched request (mockttp's own "no rule matched" is a 503)
const unmatchedStatus = (server) => (server.startsWith('mockttp') ? 503 : 404);
const casesAt = (count) => ['matched', ...(count === caseCount ? ['templated', 'unmatched'] : [])];

async function runAll() {
  const servers = [];
  const notes = [];
  const profDir = path.join(repoRoot, 'bench/results/profiles');
  if (cpuProf) mkdirSync(profDir, { recursive: true });
  const targets = [];
  const meta = new Map();
  const addTargets = (server, count, optional) => {
    for (const c of casesAt(count)) {
      const key = `${server.name} | ${count} | ${c}`;
      meta.set(key, { server: server.name, count, case: c });
      targets.push({ key, optional, request: { url: server.url + CASES[c].path, expectStatus: c === 'unmatched' ? unmatchedStatus(server.name) : 200 } });
    }
  };
  try {
    const engines = [];
    for (const count of counts) {
      log(`starting the engine with ${count} other stubs`);
      const e = await startEngine(repoRoot, count, cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []);
      servers.push(e);
      engines.push([count, e]);
    }
    // the bare server returns each case's exact bytes, the 404 report copied from the engine
    const caseEngine = engines.find(([c]) => c === caseCount)?.[1] ?? engines[0][1];
    const miss = await fetch(caseEngine.url + UNMATCHED_PATH);
    const bare = await startBareServer({
      [TARGET_PATH]: { status: 200, contentType: 'application/json', body: TARGET_BODY },
      [TEMPLATED_PATH]: { status: 200, contentType: 'application/json', body: TEMPLATED_BODY },
      [UNMATCHED_PATH]: { status: miss.status, contentType: miss.headers.get('content-type'), body: await miss.text() },
    });
    servers.push(bare);
    for (const c of ['matched', 'templated', 'unmatched']) {
      const key = `${bare.name} | - | ${c}`;
      meta.set(key, { server: bare.name, count: null, case: c });
      targets.push({ key, request: { url: bare.url + CASES[c].path, expectStatus: c === 'unmatched' ? 404 : 200 } });
    }
    for (const [count, e] of engines) addTargets(e, count, false);
    if (withMockttp) {
      for (const count of counts) {
        log(`starting mockttp with ${count} other rules`);
        const m = await startMockttp(repoRoot, count);
        if (m.skipped) {
          notes.push(`mockttp skipped at ${count} stubs: ${m.skipped}`);
          continue;
        }
        servers.push(m);
        addTargets(m, count, true);
      }
    } else notes.push('mockttp not measured (--no-mockttp)');
    const { samples, failures } = await measureInterleaved(targets, { warmupS, rounds, durationS, connections, log });
    for (const [key, reason] of failures) notes.push(`${key} dropped during the run: ${reason}`);

    // WireMock last, one JVM at a time
    const wireMock = new Map();
    if (withWireMock) {
      for (const count of counts) {
        log(`starting WireMock with ${count} other stubs`);
        const wm = await startWireMock(repoRoot, count);
        if (wm.skipped) {
          notes.push(`WireMock skipped at ${count} stubs: ${wm.skipped}`);
          continue;
        }
        try {
          for (const c of casesAt(count)) {
            const key = `${wm.name} | ${count} | ${c}`;
            meta.set(key, { server: wm.name, count, case: c });
            const request = { url: wm.url + CASES[c].path, expectStatus: c === 'unmatched' ? 404 : 200, connections };
            try {
              await runAutocannon({ ...request, durationS: wireMockWarmupS });
              const runs = [];
              for (let r = 0; r < rounds; r++) runs.push(await runAutocannon({ ...request, durationS }));
              log(`  ${key}: ${runs.map((m) => Math.round(m.rps)).join(', ')} req/s`);
              wireMock.set(key, runs);
            } catch (err) {
              notes.push(`${key} failed: ${err.message}`);
            }
          }
        } finally {
          await wm.stop();
        }
      }
    } else notes.push('WireMock not measured (--no-wiremock)');
    return { samples, wireMock, meta, notes };
  } finally {
    for (const s of servers) await s.stop();
  }
}

async function main() {
  const { samples, wireMock, meta, notes } = await runAll();
  const all = new Map([...samples, ...wireMock]);
  const find = (server, count, c) => [...all.keys()].find((k) => meta.get(k).server.startsWith(server) && meta.get(k).count === count && meta.get(k).case === c);
  const bareKey = (c) => find('bare', null, c);
  // same-round ratio where both were measured in the interleaved rounds; else ratio of medians
  const ratio = (a, b) => (a && b && all.get(a) && all.get(b) ? ratioOf(all.get(a), all.get(b), samples.has(a) && samples.has(b)) : null);

  const rows = [];
  for (const c of Object.keys(CASES)) {
    for (const count of [null, ...counts]) {
      for (const key of all.keys()) {
        const m = meta.get(key);
        if (m.case !== c || m.count !== count) continue;
        const s = summarize(all.get(key));
        const engineKey = find('mockyard', count, c);
        rows.push({
          case: CASES[c].label, otherStubs: count ?? '-', server: m.server, ...s,
          vsBare: m.server.startsWith('bare') ? 1 : ratio(key, bareKey(c)),
          engineTimes: m.server.startsWith('bare') || m.server.startsWith('mockyard') || !engineKey ? null : ratio(engineKey, key),
        });
      }
    }
  }

  const checks = [];
  const e10 = find('mockyard', 10, 'matched');
  const e1000 = find('mockyard', 1000, 'matched');
  const e10000 = find('mockyard', 10000, 'matched');
  const wm1000 = find('wiremock', 1000, 'matched');
  if (e1000) checks.push({ target: 'engine, 1,000 stubs, journal on: >= 35% of bare node:http', value: ratio(e1000, bareKey('matched')), threshold: 0.35 });
  checks.push({ target: "engine, 1,000 stubs: >= 5x WireMock's throughput", value: ratio(e1000, wm1000), threshold: 5 });
  if (e10 && e10000) checks.push({ target: 'engine, 10,000 stubs: >= 90% of its own 10-stub throughput', value: ratio(e10000, e10), threshold: 0.9 });
  for (const c of checks) c.met = c.value === null ? null : c.value >= c.threshold;

  const machine = describeMachine();
  const report = {
    scenario: 'engine',
    when: new Date().toISOString(),
    machine,
    settings: { durationS, rounds, warmupS, wireMockWarmupS, connections, counts, caseCount, journal: 'on (engine default bound 10,000; WireMock --max-request-journal-entries 10000; mockttp records traffic by default)' },
    rows,
    checks,
    notes,
  };
  const md = [
    '## Engine (scenario 1)',
    '',
    `${report.when} — ${machineLine(machine)} at the end. Command: \`node bench/engine.mjs\`.`,
    `autocannon, ${connections} connections, ${rounds} rounds × ${durationS} s after ${warmupS} s warm-up (WireMock ${wireMockWarmupS} s). Bare server, engines and mockttp run at once, each in its own process, measured in rotated order each round; WireMock afterwards, one JVM at a time. Templated and unmatched cases with ${caseCount} other stubs.`,
    '',
    'req/s, p50, p99: median of rounds; spread = (max - min) / median of the rounds\' req/s. "vs bare" and "engine ×": median of per-round ratios (figures taken seconds apart in the same round); for WireMock, ratio of medians.',
    '',
    table(
      ['case', 'other stubs', 'server', 'req/s', 'spread', 'p50 ms', 'p99 ms', 'vs bare', 'engine ×'],
      rows.map((r) => [r.case, r.otherStubs, r.server, r.rps, r.rpsSpread, r.p50Ms, r.p99Ms, r.vsBare, r.engineTimes]),
      ['---', '---:', '---', '---:', '---:', '---:', '---:', '---:', '---:'],
    ),
    '',
    checksTable(checks),
    ...(notes.length ? ['', ...notes.map((n) => `- ${n}`)] : []),
    '',
  ].join('\n');
  writeResults('engine', report, md);
  if (checks.some((c) => c.met === false)) process.exitCode = 2;
}

// exit explicitly: a child's open pipe must not keep the benchmark alive (the exit handler kills leftovers)
main().then(() => process.exit(process.exitCode ?? 0), (err) => {
  log(`engine benchmark failed: ${err.stack ?? err}`);
  process.exit(1);
});
