#!/usr/bin/env node
// Prints the README's configuration table from the services' config fields (run after `npm run build`),
// so the documentation is generated from the code that validates it.
import { createRequire } from 'node:module';
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
    const row = rows.get(key) ?? { key, env: envNamesOf(f).join(', '), def: f.default === undefined ? '—' : String(f.default), doc: f.doc, services: [] };
    row.services.push(svc);
    rows.set(key, row);
  }
}
console.log('| Property key | Environment | Default | Services | Meaning |');
console.log('|---|---|---|---|---|');
for (const r of rows.values()) {
  const svcs = r.services.length === 4 ? 'all' : r.services.join(', ');
  console.log(`| \`${r.key}\` | ${r.env.split(', ').map((e) => `\`${e}\``).join(', ')} | ${r.def === '—' ? '—' : `\`${r.def}\``} | ${svcs} | ${r.doc.replace(/\|/g, '\\|')} |`);
}
