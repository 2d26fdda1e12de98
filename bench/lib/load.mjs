// Load and latency measurement shared by the scenarios: autocannon runs checked for errors, interleaved
// rounds (warm-up, then every target once per round in rotated order, so a shared machine's drifting load
// hits all targets alike), medians, spreads and per-round ratios.
import http from 'node:http';
import autocannon from 'autocannon';

export const median = (xs) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Nearest-rank percentile (0..100) of a list of numbers. */
export function percentile(xs, p) {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/** Spread of rounds as (max - min) / median, e.g. 0.08 = the rounds lie within 8% of the median. */
export const spread = (xs) => (xs.length ? (Math.max(...xs) - Math.min(...xs)) / median(xs) : NaN);

export const round = (x, digits = 3) => (Number.isFinite(x) ? +x.toFixed(digits) : null);

/**
 * One autocannon run. `expectStatus` (default 2xx) is the status class every answer must have; anything
 * else, connection errors and timeouts fail the run (a fast error page is not a result).
 */
export async function runAutocannon({ url, method = 'GET', headers, body, connections = 32, durationS = 4, expectStatus = 200, timeoutS = 10 }) {
  const result = await autocannon({ url, method, headers, body, connections, duration: durationS, pipelining: 1, timeout: timeoutS });
  const klass = `${String(expectStatus)[0]}xx`;
  const total = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
  const wrong = total - result[klass];
  if (wrong + result.errors + result.timeouts > 0 || total === 0) {
    throw new Error(`${method} ${url}: ${total} answers, ${wrong} not ${klass}, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return { rps: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99, requests: total };
}

/**
 * Measures every target (`{key, request: {url, ...}, optional?}`) in interleaved rounds after one warm-up
 * each. An `optional` target (a peer) that fails is dropped with its reason instead of failing the run.
 * Returns { samples: Map key -> per-round results, failures: Map key -> reason }.
 */
export async function measureInterleaved(targets, { warmupS = 2, rounds = 5, durationS = 4, connections = 32, log = () => {} }) {
  const failures = new Map();
  const attempt = async (t, durationSeconds) => {
    if (failures.has(t.key)) return undefined;
    try {
      return await runAutocannon({ connections, ...t.request, durationS: durationSeconds });
    } catch (err) {
      if (!t.optional) throw err;
      failures.set(t.key, err.message);
      log(`  ${t.key} dropped: ${err.message}`);
      return undefined;
    }
  };
  for (const t of targets) {
    log(`  warm-up ${t.key}`);
    await attempt(t, t.warmupS ?? warmupS);
  }
  const samples = new Map(targets.map((t) => [t.key, []]));
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < targets.length; i++) {
      const t = targets[(i + r) % targets.length];
      const m = await attempt(t, durationS);
      if (!m) continue;
      samples.get(t.key).push(m);
      log(`  round ${r + 1} ${t.key}: ${Math.round(m.rps)} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms`);
    }
  }
  for (const key of failures.keys()) samples.delete(key);
  return { samples, failures };
}

/** Median and spread of a list of per-round results. */
export function summarize(runs) {
  const rps = runs.map((m) => m.rps);
  return {
    rps: Math.round(median(rps)),
    rpsSpread: round(spread(rps), 2),
    p50Ms: median(runs.map((m) => m.p50Ms)),
    p99Ms: median(runs.map((m) => m.p99Ms)),
    rounds: runs.length,
  };
}

/**
 * Ratio a/b of throughput: the median of per-round ratios when both were measured in the same rounds
 * (seconds apart, so steadier on a shared machine), else the ratio of medians.
 */
export function ratioOf(a, b, sameRounds = true) {
  if (sameRounds && a.length === b.length) return round(median(a.map((m, i) => m.rps / b[i].rps)));
  return round(median(a.map((m) => m.rps)) / median(b.map((m) => m.rps)));
}

/**
 * Latency of single requests one after another over one keep-alive connection (sub-millisecond
 * resolution, unlike autocannon's whole-millisecond histogram). Returns the sample in ms.
 */
export async function sampleLatency(url, { count = 500, method = 'GET', headers = {}, body } = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const target = new URL(url);
  const once = () =>
    new Promise((resolve, reject) => {
      const t0 = process.hrtime.bigint();
      const req = http.request({ host: target.hostname, port: target.port, path: target.pathname + target.search, method, headers, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode >= 400) reject(new Error(`${method} ${url}: ${res.statusCode}`));
          else resolve(Number(process.hrtime.bigint() - t0) / 1e6);
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  const sample = [];
  try {
    for (let i = 0; i < count; i++) sample.push(await once());
  } finally {
    agent.destroy();
  }
  return sample;
}
