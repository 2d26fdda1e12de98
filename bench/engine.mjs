#!/usr/bin/env node
// Engine benchmark: requests/s and p99 of one matched stub with 10, 1,000 and 10,000 other stubs loaded
// (distinct urlPaths, request journal on), beside a bare node:http server returning the same bytes and,
// where it starts, WireMock 3 — all measured in the same run, interleaved round by round, reported as ratios.
//
//   node bench/engine.mjs [--duration=5] [--rounds=3] [--warmup=2] [--connections=32] [--counts=10,1000,10000]
//                         [--no-wiremock] [--cpu-prof]
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
const durationS = Number(args.duration ?? 5);
const rounds = Number(args.rounds ?? 3);
const warmupS = Number(args.warmup ?? 2);
const connections = Number(args.connections ?? 32);
const counts = (args.counts ?? '10,1000,10000').split(',').map(Number);
const withWireMock = args['no-wiremock'] !== 'true';
const cpuProf = args['cpu-prof'] === 'true';

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

async function runBlock(otherCount) {
  const targets = [];
  const notes = [];
  targets.push(await startBare(repoRoot));
  const profDir = path.join(repoRoot, 'bench/results/profiles');
  if (cpuProf) mkdirSync(profDir, { recursive: true });
  targets.push(await startEngine(repoRoot, otherCount, cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []));
  if (withWireMock) {
    const wm = await startWireMock(repoRoot, otherCount);
    if (wm.skipped) notes.push(`WireMock skipped at ${otherCount} stubs: ${wm.skipped}`);
    else targets.push(wm);
  }
  try {
    for (const t of targets) {
      log(`  warm-up ${t.name} (${otherCount} other stubs)`);
      await measure(t.url, warmupS);
    }
    const samples = new Map(targets.map((t) => [t.name, []]));
    for (let r = 0; r < rounds; r++) {
      // rotate the order each round so drift on a shared machine does not favour one server
      const order = targets.map((_, i) => targets[(i + r) % targets.length]);
      for (const t of order) {
        const m = await measure(t.url, durationS);
        samples.get(t.name).push(m);
        log(`  round ${r + 1} ${t.name}: ${Math.round(m.rps)} req/s, p99 ${m.p99Ms} ms`);
      }
    }
    return {
      otherCount,
      notes,
      results: targets.map((t) => ({
        server: t.name,
        rps: Math.round(median(samples.get(t.name).map((s) => s.rps))),
        p99Ms: median(samples.get(t.name).map((s) => s.p99Ms)),
        rounds: samples.get(t.name),
      })),
    };
  } finally {
    for (const t of targets) await t.stop();
  }
}

async function main() {
  const blocks = [];
  for (const count of counts) {
    log(`block: ${count} other stubs`);
    blocks.push(await runBlock(count));
  }
  const find = (count, server) => blocks.find((b) => b.otherCount === count)?.results.find((r) => r.server.startsWith(server));
  const rows = [];
  for (const b of blocks) {
    const bare = find(b.otherCount, 'bare');
    for (const r of b.results) rows.push({ otherStubs: b.otherCount, server: r.server, rps: r.rps, p99Ms: r.p99Ms, vsBare: bare ? +(r.rps / bare.rps).toFixed(3) : null });
  }
  const checks = [];
  const e1000 = find(1000, 'mockyard');
  const b1000 = find(1000, 'bare');
  if (e1000 && b1000) checks.push({ target: 'engine with 1,000 stubs >= 35% of bare node:http', ratio: +(e1000.rps / b1000.rps).toFixed(3), threshold: 0.35 });
  const e10 = find(10, 'mockyard');
  const e10000 = find(10000, 'mockyard');
  if (e10 && e10000) checks.push({ target: 'engine with 10,000 stubs >= 90% of engine with 10 stubs', ratio: +(e10000.rps / e10.rps).toFixed(3), threshold: 0.9 });
  for (const c of checks) c.met = c.ratio >= c.threshold;

  const report = {
    when: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, loadavg: os.loadavg().map((l) => +l.toFixed(2)) },
    settings: { durationS, rounds, warmupS, connections, journal: 'on (engine default bound 10,000; WireMock --max-request-journal-entries 10000)' },
    rows,
    checks,
    notes: blocks.flatMap((b) => b.notes),
  };
  const md = [
    '# Engine benchmark',
    '',
    `${report.when} — ${report.machine.cpus} CPUs (${report.machine.model}), Node ${report.machine.node}, load ${report.machine.loadavg.join(' / ')} at the end.`,
    `autocannon, ${connections} connections, ${rounds} rounds × ${durationS} s after ${warmupS} s warm-up, median of rounds; one GET to a matched stub.`,
    'Shared machine: absolute figures vary with other load; ratios are measured in the same run.',
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
