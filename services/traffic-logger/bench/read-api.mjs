// Read-API benchmark: latency of the first page of /api/requests and /api/responses with one filter
// (and a few combinations) over a large traffic log seeded with generate_series SQL; then the live
// feed's delivery lag while events are stored at a steady rate.
// Needs a build (npx tsc -b services/traffic-logger).
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379 \
//     node services/traffic-logger/bench/read-api.mjs [--rows 1000000] [--requests 200] [--keep]
//       [--db <kept database>] [--only <text>] [--live-rate 500] [--live-seconds 10] [--main <main.js>]
//
// --keep        keep the seeded database (its name is printed); --db <name> reuses it (no seeding, kept)
// --only <text> run only the read scenarios whose name contains <text>
// --live-rate   events/s XADDed to the traffic stream during the live-feed phase (0 skips the phase)
// --live-seconds how long events are published; the phase ends at most 15 s later
// --main <path> the logger's main.js to start (default ../dist/main.js; e.g. an earlier build to compare)
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const pg = require('pg');
const Redis = require('ioredis');
const { migrate } = require('@mockyard/db');

const here = dirname(fileURLToPath(import.meta.url));
const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1] === undefined || all[i + 1].startsWith('--') ? 'true' : all[i + 1]]] : acc), []));
const mainJs = args.main !== undefined ? resolve(args.main) : join(here, '..', 'dist', 'main.js');
const rowCount = Number(args.rows ?? 1_000_000);
const requestsPerScenario = Number(args.requests ?? 200);
const liveRate = Number(args['live-rate'] ?? 500);
const liveSeconds = Number(args['live-seconds'] ?? 10);
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
  ['requests ?url=resource/4242? (10 rows)', '/api/requests?url=resource%2F4242%3F'],
  ['requests ?url=/4242 (110 rows)', '/api/requests?url=%2F4242'],
  ['requests ?url=resource/424 (1,110 rows, clustered)', '/api/requests?url=resource%2F424'],
  ['requests ?url=resource/42 (11,110 rows, clustered)', '/api/requests?url=resource%2F42'],
  ['requests ?url=host-7.example (5%)', '/api/requests?url=host-7.example'],
  ['requests ?url=/api/v1/ (every row)', '/api/requests?url=%2Fapi%2Fv1%2F'],
  ['requests ?from&to (1 h window)', `/api/requests?from=${twoHoursAgo}&to=${hourAgo}`],
  ['requests ?method=POST&status=500', '/api/requests?method=POST&status=500'],
  ['requests ?method=POST&url=resource/4242?', '/api/requests?method=POST&url=resource%2F4242%3F'],
  ['requests ?host=host-2.example.test&url=resource/42', '/api/requests?host=host-2.example.test&url=resource%2F42'],
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

/**
 * Live-feed delivery lag: one SSE client on /api/stream (no filter, live from now) while this process
 * XADDs events in the gateway's wire format to the traffic stream at `liveRate` per second (a tick
 * every 10 ms); lag = arrival of the event's `exchange` message at the client minus its XADD (both
 * timed here, on one clock). Rows stored in the logger's batches, then sent to the feed.
 */
async function measureLiveLag(base, prefix) {
  const redis = new Redis(redisUrl);
  const stream = `${prefix}:traffic`;
  const publishedAt = new Map();
  const lags = [];
  const controller = new AbortController();
  let received = 0;
  let readyResolve;
  const ready = new Promise((r) => (readyResolve = r));
  const res = await fetch(`${base}/api/stream`, { signal: controller.signal, headers: { accept: 'text/event-stream' } });
  if (res.status !== 200) throw new Error(`/api/stream: ${res.status}`);
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buf = '';
    try {
      for await (const chunk of res.body) {
        const now = performance.now();
        buf += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = buf.indexOf('\n\n')) >= 0) {
          const message = buf.slice(0, end);
          buf = buf.slice(end + 2);
          if (message.includes('event: ready')) readyResolve();
          const data = /^data: (.*)$/m.exec(message);
          if (!message.includes('event: exchange') || !data) continue;
          const t = publishedAt.get(JSON.parse(data[1]).id);
          if (t === undefined) continue;
          lags.push(now - t);
          received++;
        }
      }
    } catch (err) {
      if (err.name !== 'AbortError') throw err;
    }
  })();
  try {
    await Promise.race([ready, new Promise((_, rej) => setTimeout(() => rej(new Error('live feed not ready within 10 s')), 10000))]);
    let sent = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < liveSeconds * 1000) {
      const n = Math.floor(((performance.now() - t0) / 1000) * liveRate) - sent;
      if (n > 0) {
        const p = redis.pipeline();
        const ids = [];
        for (let k = 0; k < n; k++) {
          const id = randomUUID();
          ids.push(id);
          p.xadd(stream, 'MAXLEN', '~', 100000, '*', 'event', liveEvent(id, sent + k));
        }
        const t = performance.now();
        for (const id of ids) publishedAt.set(id, t);
        await p.exec();
        sent += n;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    const publishMs = performance.now() - t0;
    const deadline = performance.now() + 15000;
    while (received < sent && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const sorted = [...lags].sort((a, b) => a - b);
    return {
      scenario: 'live feed /api/stream delivery lag',
      publishedPerSec: Math.round(sent / (publishMs / 1000)),
      sent,
      received,
      p50Ms: sorted.length ? +percentile(sorted, 50).toFixed(1) : null,
      p99Ms: sorted.length ? +percentile(sorted, 99).toFixed(1) : null,
      maxMs: sorted.length ? +sorted[sorted.length - 1].toFixed(1) : null,
    };
  } finally {
    controller.abort();
    await reading.catch(() => {});
    redis.disconnect();
    // Leave the seeded log as it was (for --db reruns): these rows would be the newest ones.
    await withClient(dbUrl.toString(), (c) => c.query("DELETE FROM exchanges WHERE host = 'live.example.test'"));
  }
}

function liveEvent(id, i) {
  return JSON.stringify({
    id,
    startedAt: new Date().toISOString(),
    durationMs: 3 + (i % 50),
    source: 'proxy',
    method: i % 4 === 0 ? 'POST' : 'GET',
    url: `http://live.example.test/orders/${i}?expand=items`,
    request: { headers: { host: 'live.example.test', accept: 'application/json' } },
    response: { status: 200, statusMessage: 'OK', headers: { 'content-type': 'application/json' }, body: { encoding: 'utf8', data: `{"id":${i}}`, size: 9, truncated: false, contentType: 'application/json' } },
  });
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const tag = randomBytes(4).toString('hex');
const reuse = args.db !== undefined;
const dbName = reuse ? args.db : `mockyard_bench_read_${tag}`;
const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${dbName}`;
if (!reuse) await withClient(adminUrl, (c) => c.query(`CREATE DATABASE "${dbName}"`));
let logger;
try {
  const seedStart = performance.now();
  await withClient(dbUrl.toString(), async (c) => {
    await migrate(c);
    if (reuse) {
      await c.query('ANALYZE exchanges');
      return;
    }
    await c.query(SEED_SQL, [rowCount]);
    await c.query('VACUUM ANALYZE exchanges');
    await c.query('CHECKPOINT'); // flush the seed now, not during the measurements
  });
  process.stdout.write(`${JSON.stringify(reuse ? { reused: dbName } : { seeded: rowCount, seedMs: Math.round(performance.now() - seedStart) })}\n`);
  logger = await startLogger({ DATABASE_URL: dbUrl.toString(), REDIS_URL: redisUrl, REDIS_PREFIX: `bench-read-${tag}`, LOGGER_PORT: '0', LOG_LEVEL: 'INFO', TRAFFIC_RETENTION_MAX_AGE: 'off', TRAFFIC_RETENTION_MAX_ROWS: '0' });
  const base = `http://127.0.0.1:${logger.port}`;
  const results = [];
  for (const [name, path] of SCENARIOS.filter(([n]) => args.only === undefined || n.includes(args.only))) {
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
  const single = results.filter((r) => !r.scenario.includes('page=') && !r.scenario.includes('&'));
  if (single.length) {
    const worst = single.reduce((a, b) => (b.p99Ms > a.p99Ms ? b : a));
    process.stdout.write(`worst first-page p99 with one filter: ${worst.p99Ms} ms (${worst.scenario}); target 50 ms\n`);
  }
  if (liveRate > 0 && liveSeconds > 0) {
    const live = await measureLiveLag(base, `bench-read-${tag}`);
    process.stdout.write(`${JSON.stringify(live)}\n`);
  }
} finally {
  if (logger) {
    logger.child.kill('SIGTERM');
    await new Promise((r) => (logger.child.exitCode !== null ? r() : logger.child.once('exit', r)));
  }
  const redis = new Redis(redisUrl);
  const keys = await redis.keys(`bench-read-${tag}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
  if (reuse) process.stdout.write(`left database ${dbName} (--db)\n`);
  else if (!args.keep) await withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`));
  else process.stdout.write(`kept database ${dbName}\n`);
}
