// The real PostgreSQL and Redis a scenario needs: a fresh database on the server of BENCH_DATABASE_URL
// (default the test server, postgresql://postgres@127.0.0.1:5432/test), migrated, dropped at the end; and a
// unique Redis key prefix on BENCH_REDIS_URL (default redis://127.0.0.1:6379), its keys deleted at the end.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { repoRoot } from './results.mjs';

const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
export const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

function assertLoopback(url) {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) throw new Error(`benchmarks only target loopback, not ${host} (${url})`);
}

/** Creates and migrates a database; returns { url, drop }. */
export function createBenchDatabase(label) {
  assertLoopback(adminUrl);
  const name = `bench_${label}_${Date.now()}_${randomBytes(3).toString('hex')}`;
  execFileSync('psql', [adminUrl, '-v', 'ON_ERROR_STOP=1', '-qc', `CREATE DATABASE ${name}`], { stdio: 'pipe' });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const drop = () => {
    try {
      execFileSync('psql', [adminUrl, '-qc', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`], { stdio: 'pipe' });
    } catch (err) {
      process.stderr.write(`could not drop ${name}: ${err.message}\n`);
    }
  };
  try {
    execFileSync(process.execPath, [path.join(repoRoot, 'packages/db/dist/migrate-cli.js')], { env: { ...process.env, DATABASE_URL: url.toString() }, stdio: 'pipe' });
  } catch (err) {
    drop();
    throw new Error(`migrating ${name} failed: ${err.stderr?.toString() ?? err.message}`);
  }
  return { url: url.toString(), name, drop };
}

/** A unique key prefix; `cleanup()` deletes every key under it. */
export function createBenchRedisPrefix(label) {
  assertLoopback(redisUrl);
  const prefix = `bench-${label}-${Date.now()}-${randomBytes(3).toString('hex')}`;
  const cleanup = () => {
    try {
      const u = new URL(redisUrl);
      const args = ['-h', u.hostname, '-p', u.port || '6379', '--scan', '--pattern', `${prefix}*`];
      const keys = execFileSync('redis-cli', args, { stdio: 'pipe' }).toString().split('\n').filter(Boolean);
      for (let i = 0; i < keys.length; i += 500) execFileSync('redis-cli', ['-h', u.hostname, '-p', u.port || '6379', 'DEL', ...keys.slice(i, i + 500)], { stdio: 'pipe' });
    } catch (err) {
      process.stderr.write(`could not clean redis prefix ${prefix}: ${err.message}\n`);
    }
  };
  return { url: redisUrl, prefix, cleanup };
}
