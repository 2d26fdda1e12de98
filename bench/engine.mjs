#!/usr/bin/env node
// Engine benchmark: requests/s and p99 of one matched stub with 10, 1,000 and 10,000 other stubs loaded
// (distinct urlPaths, request journal on), beside a bare node:http server returning the same bytes and,
// where it starts, WireMock 3 — all measured in the same run, interleaved round by round, reported as ratios.
//
//   node bench/engine.mjs [--duration=4] [--rounds=5] [--warmup=2] [--wiremock-warmup=10] [--connections=32]
//                         [--counts=10,1000,10000] [--no-wiremock] [--cpu-prof]
//
// Needs the engine built (`npx tsc -b services/engine`). Writes bench/results/engine-<time>.{json,md} and
// engine-latest.{json,md}. The machine may be shared: compare ratios, not absolute figures.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { TARGET_PATH, startBare, startEngine, startWireMock } from './engine/targets.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
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
const withWireMock = args['no-wiremock'] !== 'true';
const cpuProf = args['cpu-prof'] === 'true';
// the JVM needs longer than Node to reach its steady state (JIT); WireMock is a peer for scale, not a target
const wireMockWarmupS = Number(args['wiremock-warmup'] ?? 10);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function measure(url, seconds) {
  const result = await autocannon({ url: url + TARGET_PATH, connections, duration: seconds, pipelining: 1 });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  return { rps: result.requests.average, p99Ms: result.latency.p99 };
}

function log(line) {
  process.stderr.write(line + '\n');
}

/**
 * Starts every server at once (bare, the engine at each stub count, WireMock at each stub count) and measures
 * them in interleaved rounds with the order rotated each round, so slow drift of a shared machine's load hits
 * all of them alike and the ratios compare like with like.
 */
async function runAll() {
  const targets = [];
  const notes = [];
  const profDir = path.join(repoRoot, 'bench/results/profiles');
  if (cpuProf) mkdirSync(profDir, { recursive: true });
  try {
    targets.push({ ...(await startBare(repoRoot)), otherCount: null });
    for (const count of counts) {
      log(`starting the engine with ${count} other stubs`);
      targets.push({ ...(await startEngine(repoRoot, count, cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [])), otherCount: count });
    }
    for (const t of targets) {
      log(`  warm-up ${t.name} (${t.otherCount ?? '-'} other stubs)`);
      await measure(t.url, t.warmupS ?? warmupS);
    }
    const samples = new Map(targets.map((t) => [t, []]));
    for (let r = 0; r < rounds; r++) {
      const order = targets.map((_, i) => targets[(i + r) % targets.length]);
      for (const t of order) {
        const m = await measure(t.url, durationS);
        samples.get(t).push(m);
        log(`  round ${r + 1} ${t.name} (${t.otherCount ?? '-'}): ${Math.round(m.rps)} req/s, p99 ${m.p99Ms} ms`);
      }
    }
    // WireMock last, one JVM at a time: an idle JVM still burns CPU (JIT, GC) and would slow the others
    const wireMockResults = [];
    if (withWireMock) {
      for (const count of counts) {
        log(`starting WireMock with ${count} other stubs`);
        const wm = await startWireMock(repoRoot, count);
        if (wm.skipped) {
          notes.push(`WireMock skipped at ${count} stubs: ${wm.skipped}`);
          continue;
        }
        try {
          await measure(wm.url, wireMockWarmupS);
          const runs = [];
          for (let r = 0; r < rounds; r++) runs.push(await measure(wm.url, durationS));
          log(`  ${wm.name} (${count}): ${runs.map((m) => Math.round(m.rps)).join(', ')} req/s`);
          wireMockResults.push({ server: wm.name, otherCount: count, rps: Math.round(median(runs.map((m) => m.rps))), p99Ms: median(runs.map((m) => m.p99Ms)), rounds: runs });
        } finally {
          await wm.stop();
        }
      }
    }
    return {
      notes,
      results: [...targets.map((t) => ({
        server: t.name,
        otherCount: t.otherCount,
        rps: Math.round(median(samples.get(t).map((s) => s.rps))),
        p99Ms: median(samples.get(t).map((s) => s.p99Ms)),
        rounds: samples.get(t),
      })), ...wireMockResults],
    };
  } finally {
    for (const t of targets) await t.stop();
  }
}

async function main() {
  const { results, notes } = await runAll();
  const bare = results.find((r) => r.otherCount === null);
  const find = (count, server) => results.find((r) => r.otherCount === count && r.server.startsWith(server));
  // Ratios: the median over rounds of the two figures measured in the same round (seconds apart), which is
  // steadier on a shared machine than a ratio of medians; WireMock (measured later) uses the medians.
  const ratio = (a, b) => {
    if (a.rounds.length === b.rounds.length && a.server !== b.server && !a.server.startsWith('wiremock')) {
      return +median(a.rounds.map((m, i) => m.rps / b.rounds[i].rps)).toFixed(3);
    }
    return +(a.rps / b.rps).toFixed(3);
  };
  const rows = results.map((r) => ({ otherStubs: r.otherCount ?? '-', server: r.server, rps: r.rps, p99Ms: r.p99Ms, vsBare: r === bare ? 1 : ratio(r, bare) }));
  const checks = [];
  const e1000 = find(1000, 'mockyard');
  if (e1000) checks.push({ target: 'engine with 1,000 stubs >= 35% of bare node:http', ratio: ratio(e1000, bare), threshold: 0.35 });
  const e10 = find(10, 'mockyard');
  const e10000 = find(10000, 'mockyard');
  if (e10 && e10000) checks.push({ target: 'engine with 10,000 stubs >= 90% of engine with 10 stubs', ratio: ratio(e10000, e10), threshold: 0.9 });
  for (const c of checks) c.met = c.ratio >= c.threshold;

  const report = {
    when: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, loadavg: os.loadavg().map((l) => +l.toFixed(2)) },
    settings: { durationS, rounds, warmupS, wireMockWarmupS, connections, journal: 'on (engine default bound 10,000; WireMock --max-request-journal-entries 10000)' },
    rows,
    checks,
    notes,
  };
  const md = [
    '# Engine benchmark',
    '',
    `${report.when} — ${report.machine.cpus} CPUs (${report.machine.model}), Node ${report.machine.node}, load ${report.machine.loadavg.join(' / ')} at the end.`,
    `autocannon, ${connections} connections, ${rounds} rounds × ${durationS} s after ${warmupS} s warm-up (WireMock ${wireMockWarmupS} s), median of rounds; one GET to a matched stub.`,
    'Bare server and engines run at the same time, each in its own process, measured one after another in rotated order each round; WireMock afterwards, one JVM at a time.',
    'Shared machine: absolute figures vary with other load; ratios are measured in the same run.',
    '',
    'req/s and p99: median of rounds. Ratios: median of per-round ratios (figures taken seconds apart in the same round).',
    '',
    '| other stubs | server | req/s | p99 ms | vs bare |',
    '|---:|---|---:|---:|---:|',
    ...rows.map((r) => `| ${r.otherStubs} | ${r.server} | ${r.rps} | ${r.p99Ms} | ${r.vsBare ?? ''} |`),
    '',
    '| target | ratio | threshold | met |',
    '|---|---:|---:|---|',
    ...checks.map((c) => `| ${c.target} | ${c.ratio} | ${c.threshold} | ${c.met ? 'yes' : 'NO'} |`),
    ...(report.notes.length ? ['', ...report.notes.map((n) => `- ${n}`)] : []),
    '',
  ].join('\n');
  const dir = path.join(repoRoot, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const stamp = report.when.replace(/[:.]/g, '-');
  for (const name of [`engine-${stamp}`, 'engine-latest']) {
    writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(report, null, 2) + '\n');
    writeFileSync(path.join(dir, `${name}.md`), md);
  }
  process.stdout.write(md);
  if (checks.some((c) => !c.met)) process.exitCode = 2;
}

main().catch((err) => {
  process.stderr.write(`engine benchmark failed: ${err.stack ?? err}\n`);
  process.exit(1);
});
