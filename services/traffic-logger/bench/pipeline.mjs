// Pipeline benchmark: how many events per second the traffic-logger stores.
// XADDs N events (the gateway's wire format) as fast as Redis takes them, then times until every row is
// in PostgreSQL; with one and with two logger processes. Needs a build (npx tsc -b services/traffic-logger).
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379 \
//     node services/traffic-logger/bench/pipeline.mjs [--events 50000] [--instances 1,2] [--body-bytes 512]
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const require = createRequire(import.meta.url);
const Redis = require('ioredis');
const pg = require('pg');

const here = dirname(fileURLToPath(import.meta.url));
const mainJs = join(here, '..', 'dist', 'main.js');
const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []));
const eventCount = Number(args.events ?? 50000);
const instanceCounts = String(args.instances ?? '1,2').split(',').map(Number);
const bodyBytes = Number(args['body-bytes'] ?? 512);
const adminUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

function makeEvent(i) {
  const body = 'x'.repeat(bodyBytes);
  return JSON.stringify({
    id: randomUUID(),
    startedAt: new Date(Date.now() - 60000 + i).toISOString(),
    durationMs: 3 + (i % 50),
    source: 'proxy',
    method: i % 4 === 0 ? 'POST' : 'GET',
    url: `http://api.example.test/orders/${i}?expand=items`,
    request: { headers: { host: 'api.example.test', accept: 'application/json', 'user-agent': 'bench' }, body: i % 4 === 0 ? { encoding: 'utf8', data: body, size: bodyBytes, truncated: false, contentType: 'text/plain' } : undefined },
    response: { status: i % 10 === 0 ? 500 : 200, statusMessage: 'OK', headers: { 'content-type': 'text/plain', 'content-length': String(bodyBytes) }, body: { encoding: 'utf8', data: body, size: bodyBytes, truncated: false, contentType: 'text/plain' } },
  });
}

/** CPU time (user + system, µs) a process has used so far, from /proc (Linux); undefined elsewhere. */
function cpuMicros(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100; // utime + stime in clock ticks (100/s)
  } catch {
    return undefined;
  }
}

async function withClient(url, fn) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

function startLogger(env, name) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [mainJs], { env: { ...process.env, ...env, TRAFFIC_CONSUMER_NAME: name }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const onData = (d) => {
      out += d;
      if (out.includes('traffic-logger listening')) {
        child.stdout.off('data', onData);
        child.stdout.resume();
        resolve(child);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`logger exited early (${code}): ${out}`)));
    setTimeout(() => reject(new Error(`logger did not start within 30 s: ${out}`)), 30000).unref();
  });
}

async function runOnce(instances) {
  const tag = randomBytes(4).toString('hex');
  const dbName = `mockyard_bench_${tag}`;
  const prefix = `bench-${tag}`;
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE "${dbName}"`));
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${dbName}`;
  const env = {
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    LOGGER_PORT: '0',
    LOG_LEVEL: 'INFO', // the bench waits for the 'listening' line
    TRAFFIC_RETENTION_MAX_AGE: 'off',
    TRAFFIC_RETENTION_MAX_ROWS: '0',
  };
  const children = [];
  const redis = new Redis(redisUrl);
  try {
    // The first instance migrates; start the others after it.
    children.push(await startLogger(env, `bench-${tag}-0`));
    for (let i = 1; i < instances; i++) children.push(await startLogger(env, `bench-${tag}-${i}`));
    const payloads = Array.from({ length: eventCount }, (_, i) => makeEvent(i));
    const stream = `${prefix}:traffic`;
    const cpuBefore = children.map((c) => cpuMicros(c.pid));
    const t0 = performance.now();
    for (let i = 0; i < payloads.length; i += 1000) {
      const p = redis.pipeline();
      for (const e of payloads.slice(i, i + 1000)) p.xadd(stream, 'MAXLEN', '~', 1000000, '*', 'event', e);
      await p.exec();
    }
    const tPublished = performance.now();
    const stored = await withClient(dbUrl.toString(), async (c) => {
      for (;;) {
        const { rows } = await c.query('SELECT count(*)::int AS n FROM exchanges');
        if (rows[0].n >= eventCount) return rows[0].n;
        if (performance.now() - t0 > 300000) throw new Error(`only ${rows[0].n} of ${eventCount} stored after 300 s`);
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    const tStored = performance.now();
    const pending = (await redis.xpending(stream, 'traffic-logger'))[0];
    const cpuUsed = children.map((c, i) => (cpuBefore[i] === undefined ? undefined : cpuMicros(c.pid) - cpuBefore[i]));
    const loggerCpuUsPerEvent = cpuUsed.includes(undefined) ? undefined : Math.round(cpuUsed.reduce((a, b) => a + b, 0) / eventCount);
    return {
      instances,
      events: eventCount,
      stored,
      publishPerSec: Math.round(eventCount / ((tPublished - t0) / 1000)),
      storedPerSec: Math.round(eventCount / ((tStored - t0) / 1000)),
      totalMs: Math.round(tStored - t0),
      pendingAfter: Number(pending),
      loggerCpuUsPerEvent,
    };
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r() : c.once('exit', r)))));
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) await redis.unlink(...keys);
    } while (cursor !== '0');
    redis.disconnect();
    await withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`));
  }
}

const results = [];
for (const n of instanceCounts) {
  const r = await runOnce(n);
  results.push(r);
  process.stdout.write(`${JSON.stringify(r)}\n`);
}
if (results.length > 1) {
  process.stdout.write(`two/one instances stored-rate ratio: ${(results[1].storedPerSec / results[0].storedPerSec).toFixed(2)}\n`);
}
