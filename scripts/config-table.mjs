#!/usr/bin/env node
// Prints the README's configuration table from the services' config fields (run after `npm run build`),
// so the documentation is generated from the code that validates it. `--write` replaces the table
// between the README's config-table markers.
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
const require = createRequire(import.meta.url);
const { envNamesOf } = require('../packages/config/dist/index.js');
const services = {
  'proxy-gateway': require('../services/proxy-gateway/dist/config.js').gatewayConfigFields,
  'traffic-logger': require('../services/traffic-logger/dist/config.js').loggerConfigFields,
  'hub-api': require('../services/hub-api/dist/config.js').hubConfigFields,
  engine: require('../services/engine/dist/config.js').engineConfigFields,
};
const rows = new Map();
for (const [svc, fields] of Object.entries(services)) {
  for (const f of Object.values(fields)) {
    const key = f.keys.join(' / ');
    // Defaults computed from the machine are shown symbolically.
    const def = f.default === undefined ? '—' : String(f.default).replace(`${hostname()}-${process.pid}`, '<hostname>-<pid>').replace(hostname(), '<hostname>');
    const row = rows.get(key) ?? { key, env: envNamesOf(f).join(', '), def, doc: f.doc, services: [] };
    row.services.push(svc);
    rows.set(key, row);
  }
}
const lines = ['| Property key | Environment | Default | Services | Meaning |', '|---|---|---|---|---|'];
for (const r of rows.values()) {
  const svcs = r.services.length === 4 ? 'all' : r.services.join(', ');
  lines.push(`| \`${r.key}\` | ${r.env.split(', ').map((e) => `\`${e}\``).join(', ')} | ${r.def === '—' ? '—' : `\`${r.def}\``} | ${svcs} | ${r.doc.replace(/\|/g, '\\|')} |`);
}
const table = lines.join('\n');
if (process.argv.includes('--write')) {
  const readmePath = new URL('../README.md', import.meta.url);
  const readme = readFileSync(readmePath, 'utf8');
  const start = '<!-- config-table:start -->';
  const end = '<!-- config-table:end -->';
  const i = readme.indexOf(start);
  const j = readme.indexOf(end);
  if (i < 0 || j < 0) throw new Error('README.md has no config-table markers');
  writeFileSync(readmePath, `${readme.slice(0, i + start.length)}\n${table}\n${readme.slice(j)}`);
} else {
  console.log(table);
}
