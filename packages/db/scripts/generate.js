// Runs `prisma generate` offline. Prisma 7's CLI wants its native schema engine even though client
// generation does not use it; pointing PRISMA_SCHEMA_ENGINE_BINARY at any executable satisfies it.
const { execFileSync } = require('node:child_process');
const { mkdtempSync, writeFileSync, chmodSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) {
  const stub = join(mkdtempSync(join(tmpdir(), 'mockyard-prisma-')), 'schema-engine');
  writeFileSync(stub, '#!/bin/sh\nexit 1\n');
  chmodSync(stub, 0o755);
  env.PRISMA_SCHEMA_ENGINE_BINARY = stub;
}
execFileSync(process.execPath, [require.resolve('prisma/build/index.js'), 'generate'], { cwd: join(__dirname, '..'), env, stdio: 'inherit' });
