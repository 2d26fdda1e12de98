#!/usr/bin/env node
// RSS A/B of logger builds: each build runs as its own process (own database and Redis prefix) at the same
// time, fed the same events at the same fixed rate (XADD, 512-byte response bodies), RSS sampled every
// 250 ms, and each answers a trickle of reads (GET /api/requests?size=20, BENCH_READS_PER_S, default 10,
// as the footprint scenario's reader does); prints idle / max / last RSS per build. Same run, same machine load: compare the builds' max RSS.
// Build the other version into a folder inside the repository (so it resolves node_modules), e.g.
//   git stash && npx tsc -b services/traffic-logger && cp -r services/traffic-logger/dist services/traffic-logger/.dist-old && git stash pop && npm run build
//   BENCH_AB_MAINS=old=services/traffic-logger/.dist-old/main.js,new=services/traffic-logger/dist/main.js \
//     BENCH_RATE=2000 BENCH_DURATION_S=40 node services/traffic-logger/bench/rss-ab.mjs
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createBenchDatabase, createBenchRedisPrefix } from '../../../bench/lib/infra.mjs';
import { boundRuntime, freePort, readRssMb, sleep, startProcess, waitHealthy } from '../../../bench/lib/process.mjs';
import { envNumber, repoRoot as R } from '../../../bench/lib/results.mjs';

const require = createRequire(`${R}/package.json`);
const Redis = require('ioredis');
const readsPerS = envNumber('BENCH_READS_PER_S', 10);
const rate = envNumber('BENCH_RATE', 2000), durS = envNumber('BENCH_DURATION_S', 40), bodyBytes = envNumber('BENCH_BODY_BYTES', 512);
const builds = Object.fromEntries((process.env.BENCH_AB_MAINS ?? 'this=services/traffic-logger/dist/main.js').split(',').map((kv) => kv.split('=')).map(([k, v]) => [k, path.resolve(R, v)]));
boundRuntime('rss A/B', durS + 120);
const body = 'x'.repeat(bodyBytes);
const ev = (i) =>
  JSON.stringify({ id: randomUUID(), startedAt: new Date().toISOString(), durationMs: 3, source: 'proxy', method: 'GET', url: `http://api.example.test/orders/${i}?expand=items`,
  request: { headers: { host: 'api.example.test', accept: 'application/json', 'user-agent': 'bench' } },
  response: { status: 200, statusMessage: 'OK', headers: { 'content-type': 'application/json', 'content-length': String(bodyBytes) }, body: { encoding: 'utf8', data: body, size: bodyBytes, truncated: false, contentType: 'application/json' } } });
const runs = [];
try {
  for (const [name, main] of Object.entries(builds)) {
    const db = createBenchDatabase(`ab${name}`), rp = createBenchRedisPrefix(`ab${name}`);
    const port = await freePort();
    const proc = startProcess(name, process.execPath, [main], { cwd: R, env: { ...process.env, DATABASE_URL: db.url, REDIS_URL: rp.url, REDIS_PREFIX: rp.prefix, LOGGER_PORT: String(port), LOG_LEVEL: 'WARN', TRAFFIC_RETENTION_MAX_AGE: 'off', TRAFFIC_RETENTION_MAX_ROWS: '0' } });
    await waitHealthy(proc, `http://127.0.0.1:${port}/health/ready`);
    runs.push({ name, db, rp, proc, port, max: 0, idle: 0 });
  }
  await sleep(3000);
  for (const r of runs) r.idle = readRssMb(r.proc.pid);
  const redis = new Redis(runs[0].rp.url);
  const t0 = Date.now(); let i = 0;
  const timer = setInterval(() => { for (const r of runs) r.max = Math.max(r.max, readRssMb(r.proc.pid) ?? 0); }, 250);
  const reads = readsPerS > 0 ? setInterval(() => { for (const r of runs) fetch(`http://127.0.0.1:${r.port}/api/requests?size=20`).then((res) => res.arrayBuffer(), () => undefined); }, 1000 / readsPerS) : undefined;
  while (Date.now() - t0 < durS * 1000) {
    const target = Math.floor(((Date.now() - t0) / 1000) * rate);
    const p = redis.pipeline();
    for (; i < target; i++) { const e = ev(i); for (const r of runs) p.xadd(`${r.rp.prefix}:traffic`, 'MAXLEN', '~', 1000000, '*', 'event', e); }
    await p.exec();
    await sleep(50);
  }
  clearInterval(reads);
  await sleep(3000);
  clearInterval(timer);
  for (const r of runs) {
    const g = await redis.xinfo('GROUPS', `${r.rp.prefix}:traffic`);
    console.log(JSON.stringify({ build: r.name, events: i, rate, idleMb: r.idle.toFixed(1), maxMb: r.max.toFixed(1), lastMb: readRssMb(r.proc.pid)?.toFixed(1), group: g[0]?.slice(0, 12).join(' ') }));
  }
  redis.disconnect();
} finally {
  for (const r of runs) { await r.proc.stop(); r.db.drop(); r.rp.cleanup(); }
}
process.exit(0);
