// Starts the standalone build: PORT (default 3000) and HOSTNAME (default 127.0.0.1) from the environment.
import path from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

process.env.PORT ||= '3000';
process.env.HOSTNAME ||= '127.0.0.1';
process.env.NEXT_TELEMETRY_DISABLED ||= '1';
const server = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '.next', 'standalone', 'web', 'server.js');
if (!existsSync(server)) {
  process.stderr.write(`no build at ${server}: run \`npm run build -w @mockyard/web\` first\n`);
  process.exit(1);
}
createRequire(import.meta.url)(server);
