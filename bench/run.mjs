#!/usr/bin/env node
// `npm run bench`: runs every scenario script in turn, each of which starts what it needs on loopback and
// measures beside a baseline from the same run; scripts that write bench/results/<scenario>.md have their
// tables joined into bench/results/summary.md, the others print theirs. `npm run bench -- engine gateway`
// runs only those scenarios.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';

const here = dirname(fileURLToPath(import.meta.url));
const scripts = {
  engine: join(here, 'engine.mjs'),
  gateway: join(here, 'gateway.mjs'),
  pipeline: join(here, '..', 'services/traffic-logger/bench/pipeline.mjs'),
  'read-api': join(here, '..', 'services/traffic-logger/bench/read-api.mjs'),
  hub: join(here, 'hub.mjs'),
  footprint: join(here, 'footprint.mjs'),
};
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((s) => !scripts[s]);
if (unknown.length) {
  process.stderr.write(`unknown scenario ${unknown.join(', ')}; one of ${Object.keys(scripts).join(', ')}\n`);
  process.exit(1);
}
const scenarios = wanted.length ? wanted : Object.keys(scripts);
mkdirSync(join(here, 'results'), { recursive: true });

const failed = [];
for (const s of scenarios) {
  process.stdout.write(`\n### ${s}\n`);
  const r = spawnSync(process.execPath, [scripts[s]], { stdio: 'inherit', env: process.env });
  if (r.status !== 0) failed.push(s);
}

const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const parts = [`# Benchmark results\n\nRun ${new Date().toISOString()} on ${machine}. Figures are ratios against a baseline measured in the same run.\n`];
for (const s of scenarios) {
  const md = join(here, 'results', `${s}.md`);
  if (existsSync(md)) parts.push(readFileSync(md, 'utf8'));
}
writeFileSync(join(here, 'results', 'summary.md'), parts.join('\n'));
process.stdout.write(`\nSummary: bench/results/summary.md${failed.length ? ` (failed: ${failed.join(', ')})` : ''}\n`);
process.exit(failed.length ? 1 : 0);
