// The README documents every configuration key of every service (scripts/config-table.mjs prints the table).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfigFields } from '@mockyard/config';
import { engineConfigFields } from '../services/engine/src/config';
import { gatewayConfigFields } from '../services/proxy-gateway/src/config';
import { hubConfigFields } from '../services/hub-api/src/config';
import { loggerConfigFields } from '../services/traffic-logger/src/config';

const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
const all: [string, ConfigFields][] = [
  ['proxy-gateway', gatewayConfigFields],
  ['traffic-logger', loggerConfigFields],
  ['hub-api', hubConfigFields],
  ['engine', engineConfigFields],
];

describe('README configuration table', () => {
  it.each(all.flatMap(([svc, fields]) => Object.values(fields).map((f) => [svc, f.keys[0]] as const)))('%s: documents %s', (_svc, key) => {
    expect(readme).toContain(`\`${key}`);
  });
});
