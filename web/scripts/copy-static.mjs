// After `next build` (output: 'standalone' in a monorepo) the server lands at
// .next/standalone/web/server.js; it serves .next/static and public only when they sit beside it.
import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const webDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = path.join(webDir, '.next', 'standalone', 'web');
if (!existsSync(path.join(target, 'server.js'))) {
  process.stderr.write(`standalone server not found at ${target}; did next build run with output: 'standalone'?\n`);
  process.exit(1);
}
cpSync(path.join(webDir, '.next', 'static'), path.join(target, '.next', 'static'), { recursive: true });
if (existsSync(path.join(webDir, 'public'))) cpSync(path.join(webDir, 'public'), path.join(target, 'public'), { recursive: true });
process.stdout.write(`copied static assets beside ${path.relative(webDir, target)}/server.js\n`);
