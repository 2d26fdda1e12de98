// Read-API benchmark: latency of the first page of /api/requests and /api/responses with one filter
// (and a few combinations) over a large traffic log seeded with generate_series SQL.
// Needs a build (npx tsc -b services/traffic-logger).
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test \
//     node services/traffic-logger/bench/read-api.mjs [--rows 1000000] [--requests 200] [--keep]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const pg = require('pg');
const Redis = require('ioredis');
const { migrate } = require('@mockyard/db');

const here = dirname(fileURLToPath(import.meta.url));
const mainJs = join(here, '..', 'dist', 'main.js');
const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1] === undefined || all[i + 1].startsWith('--') ? 'true' : all[i + 1]]] : acc), []));
const rowCount = Number(args.rows ?? 1_000_000);
const requestsPerScenario = Number(args.requests ?? 200);
const adminUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

// Realistic mix: 60% GET, 25% POST …; 70% 200 …; 20 hosts; 7 days of traffic, newest = highest seq.
const SEED_SQL = `
INSERT INTO exchanges (id, started_at, duration_ms, source, method, url, scheme, host, port, path, request_headers,
  request_body, request_body_encoding, request_body_size, status, status_message, response_headers, response_body,
  response_body_encoding, response_body_size)
SELECT gen_random_uuid(),
  now() - make_interval(secs => ($1::int - i) * 0.6),
  (random() * random() * 1000)::numeric(10,1)::float8,
  CASE WHEN i % 10 = 0 THEN 'forward' ELSE 'proxy' END,
  m.method,
  'http://host-' || (i % 20) || '.example.test/api/v1/resource/' || (i % 100000) || '?q=' || (i % 7),
  'http', 'host-' || (i % 20) || '.example.test', NULL,
  '/api/v1/resource/' || (i % 100000) || '?q=' || (i % 7),
  '{"accept":"application/json","user-agent":"bench"}'::jsonb,
  CASE WHEN m.method IN ('POST','PUT','PATCH') THEN '{"name":"item ' || i || '","qty":' || (i % 9) || '}' END,
  CASE WHEN m.method IN ('POST','PUT','PATCH') THEN 'utf8' END,
  CASE WHEN m.method IN ('POST','PUT','PATCH') THEN 30 ELSE 0 END,
  s.status, CASE WHEN s.status IS NULL THEN NULL ELSE 'Status' END,
  CASE WHEN s.status IS NULL THEN NULL ELSE '{"content-type":"application/json"}'::jsonb END,
  CASE WHEN s.status IS NULL THEN NULL ELSE '{"id":' || i || ',"ok":true,"items":[1,2,3]}' END,
  CASE WHEN s.status IS NULL THEN NULL ELSE 'utf8' END,
  CASE WHEN s.status IS NULL THEN 0 ELSE 35 END
FROM generate_series(1, $1::int) AS i
CROSS JOIN LATERAL (SELECT CASE WHEN i % 100 < 60 THEN 'GET' WHEN i % 100 < 85 THEN 'POST' WHEN i % 100 < 92 THEN 'PUT' WHEN i % 100 < 97 THEN 'DELETE' ELSE 'PATCH' END AS method) m
CROSS JOIN LATERAL (SELECT CASE WHEN (i * 7 + i / 100) % 100 < 70 THEN 200 WHEN (i * 7 + i / 100) % 100 < 78 THEN 201 WHEN (i * 7 + i / 100) % 100 < 81 THEN 204
  WHEN (i * 7 + i / 100) % 100 < 83 THEN 301 WHEN (i * 7 + i / 100) % 100 < 87 THEN 400 WHEN (i * 7 + i / 100) % 100 < 93 THEN 404 WHEN (i * 7 + i / 100) % 100 < 97 THEN 500
  WHEN (i * 7 + i / 100) % 100 < 99 THEN 503 ELSE NULL END AS status) s`;

const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
const twoHoursAgo = new Date(Date.now() - 7_200_000).toISOString();
const SCENARIOS = [
  ['requests, no filter', '/api/requests'],
  ['requests ?method=POST', '/api/requests?method=POST'],
  ['requests ?method=PATCH', '/api/requests?method=PATCH'],
  ['requests ?status=404', '/api/requests?status=404'],
  ['requests ?status=503', '/api/requests?status=503'],
  ['responses, no filter', '/api/responses'],
  ['responses ?status=500', '/api/responses?status=500'],
  ['requests ?host=host-7.example.test', '/api/requests?host=host-7.example.test'],
  ['requests ?statusClass=5xx', '/api/requests?statusClass=5xx'],
  ['requests ?source=forward', '/api/requests?source=forward'],
  ['requests ?minDurationMs=900', '/api/requests?minDurationMs=900'],
  ['requests ?url=resource/4242?', '/api/requests?url=resource%2F4242%3F'],
  ['requests ?from&to (1 h window)', `/api/requests?from=${twoHoursAgo}&to=${hourAgo}`],
  ['requests ?method=POST&status=500', '/api/requests?method=POST&status=500'],
  ['requests ?page=50&size=20', '/api/requests?page=50&size=20'],
];

async function withClient(url, fn) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

function startLogger(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [mainJs], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const onData = (d) => {
      out += d;
      const m = /"port":(\d+)[^\n]*traffic-logger listening/.exec(out);
      if (m) {
        child.stdout.off('data', onData);
        child.stdout.resume();
        resolve({ child, port: Number(m[1]) });
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`logger exited early (${code}): ${out}`)));
    setTimeout(() => reject(new Error(`logger did not start within 60 s: ${out}`)), 60000).unref();
  });
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const tag = randomBytes(4).toString('hex');
const dbName = `mockyard_bench_read_${tag}`;
const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${dbName}`;
await withClient(adminUrl, (c) => c.query(`CREATE DATABASE "${dbName}"`));
let logger;
try {
  const seedStart = performance.now();
  await withClient(dbUrl.toString(), async (c) => {
    await migrate(c);
    await c.query(SEED_SQL, [rowCount]);
    await c.query('VACUUM ANALYZE exchanges');
    await c.query('CHECKPOINT'); // flush the seed now, not during the measurements
  });
  process.stdout.write(`${JSON.stringify({ seeded: rowCount, seedMs: Math.round(performance.now() - seedStart) })}\n`);
  logger = await startLogger({ DATABASE_URL: dbUrl.toString(), REDIS_URL: redisUrl, REDIS_PREFIX: `bench-read-${tag}`, LOGGER_PORT: '0', LOG_LEVEL: 'INFO', TRAFFIC_RETENTION_MAX_AGE: 'off', TRAFFIC_RETENTION_MAX_ROWS: '0' });
  const base = `http://127.0.0.1:${logger.port}`;
  const results = [];
  for (const [name, path] of SCENARIOS) {
    const times = [];
    let sample;
    for (let i = 0; i < requestsPerScenario + 10; i++) {
      const t = performance.now();
      const res = await fetch(`${base}${path}`);
      const body = await res.json();
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
      if (i >= 10) times.push(performance.now() - t); // the first 10 warm up
      sample = body;
    }
    times.sort((a, b) => a - b);
    const r = {
      scenario: name,
      p50Ms: +percentile(times, 50).toFixed(1),
      p95Ms: +percentile(times, 95).toFixed(1),
      p99Ms: +percentile(times, 99).toFixed(1),
      totalElements: sample.totalElements,
      exact: sample.totalElementsExact,
      items: sample.numberOfElements,
    };
    results.push(r);
    process.stdout.write(`${JSON.stringify(r)}\n`);
  }
  const worst = results.filter((r) => !r.scenario.includes('page=')).reduce((a, b) => (b.p99Ms > a.p99Ms ? b : a));
  process.stdout.write(`worst first-page p99: ${worst.p99Ms} ms (${worst.scenario}); target 50 ms\n`);
} finally {
  if (logger) {
    logger.child.kill('SIGTERM');
    await new Promise((r) => (logger.child.exitCode !== null ? r() : logger.child.once('exit', r)));
  }
  const redis = new Redis(redisUrl);
  const keys = await redis.keys(`bench-read-${tag}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
  if (!args.keep) await withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`));
  else process.stdout.write(`kept database ${dbName}\n`);
}
