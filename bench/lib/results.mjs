// Results of a scenario: bench/results/<scenario>.json (full report, git-ignored) and <scenario>.md (the
// table, joined by bench/run.mjs into summary.md), plus the table on stdout.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const resultsDir = path.join(repoRoot, 'bench/results');

export function describeMachine() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    model: cpus[0]?.model ?? 'unknown',
    memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    loadavg: os.loadavg().map((l) => +l.toFixed(2)),
  };
}

export function machineLine(m = describeMachine()) {
  return `${m.cpus} CPUs (${m.model}), ${m.memoryGiB} GiB, Node ${m.node}, load ${m.loadavg.join(' / ')}`;
}

/** A Markdown table from a header list and rows of cells. */
export function table(header, rows, align = header.map(() => '---')) {
  return [`| ${header.join(' | ')} |`, `|${align.join('|')}|`, ...rows.map((r) => `| ${r.map((c) => (c === undefined || c === null ? '' : c)).join(' | ')} |`)].join('\n');
}

/** The table of target checks: `{target, value, threshold, met}` (met: true / false / null = not measured). */
export function checksTable(checks) {
  return table(
    ['target', 'measured', 'threshold', 'met'],
    checks.map((c) => [c.target, c.value ?? 'n/a', c.threshold, c.met === null || c.met === undefined ? 'not measured' : c.met ? 'yes' : 'NO']),
    ['---', '---:', '---:', '---'],
  );
}

export function writeResults(scenario, report, markdown) {
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(path.join(resultsDir, `${scenario}.json`), JSON.stringify(report, null, 2) + '\n');
  writeFileSync(path.join(resultsDir, `${scenario}.md`), markdown.endsWith('\n') ? markdown : markdown + '\n');
  process.stdout.write(markdown + '\n');
}

export function envNumber(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got ${raw}`);
  return n;
}

export const log = (line) => process.stderr.write(line + '\n');
