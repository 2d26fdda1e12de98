// Load and latency measurement shared by the scenarios: autocannon runs checked for errors, interleaved
// rounds (warm-up, then every target once per round in rotated order, so a shared machine's drifting load
// hits all targets alike), medians, spreads and per-round ratios.
import http from 'node:http';
import net from 'node:net';
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

/** runPaced's index of a connection's priming request (see below). */
const PRIMING = -2;

/**
 * Open-loop load at a constant rate (wrk2's model): request i is due at start + i / rate and is sent when due
 * on a free keep-alive connection of the pool (or waits for one); its latency counts from when it was due, so a
 * stall shows in the requests queued behind it too (no coordinated omission). autocannon's `overallRate` is not
 * this: each connection sends its quota for the second back to back at the start of the second and then waits,
 * so at "half load" the server sees bursts at full speed (measured: at 2,000 req/s every request of a second
 * arrived within its first 200 ms). The client is raw sockets reading only the status line and Content-Length
 * (every bench server sends one), because node:http's client alone put 10 ms on the p99 of a bare server at
 * 2,000 req/s of 100 KiB. Steady state, as wrk2 measures it after its calibration: every connection is opened
 * and carries one request (not counted) before the schedule starts, so the figure is not the first 100 ms of
 * connection set-up, which through a proxy (a cluster's primary handing each accepted connection to a worker, the
 * proxy's upstream connections) put 25–50 ms on the first requests of every round. GET only; any other status, a response
 * without Content-Length, a connection error or requests left unanswered `timeoutMs` after the last one was due
 * fail the run.
 * Returns { rps, p50Ms, p99Ms, maxMs, requests }.
 */
export function runPaced(url, { rate, durationS = 8, connections = 32, expectStatus = 200, timeoutMs = 10000 }) {
  const target = new URL(url);
  const request = Buffer.from(`GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n\r\n`, 'latin1');
  const intervalMs = 1000 / rate;
  const total = Math.max(1, Math.round(rate * durationS));
  const latencies = new Float64Array(total);
  const waiting = []; // due requests, every connection busy
  const idle = [];
  const sockets = new Set();
  let due = 0;
  let finished = 0;
  let primed = 0;
  let ticker;
  let ended = false;
  let start; // when request 0 is due: once every connection has carried its priming request
  return new Promise((resolve, reject) => {
    const end = (failure) => {
      if (ended) return;
      ended = true;
      clearTimeout(ticker);
      clearTimeout(deadline);
      for (const s of sockets) s.destroy();
      if (failure) return reject(new Error(`GET ${url} at ${rate} req/s: ${failure}`));
      const elapsedS = (performance.now() - start) / 1000;
      const sample = Array.from(latencies);
      const ms = (x) => Math.round(x * 100) / 100;
      resolve({ rps: total / elapsedS, p50Ms: ms(percentile(sample, 50)), p99Ms: ms(percentile(sample, 99)), maxMs: ms(sample.reduce((a, b) => Math.max(a, b), 0)), requests: total });
    };
    // until the schedule starts: the priming requests get `timeoutMs` too
    let deadline = setTimeout(() => end(`connections not primed within ${timeoutMs} ms`), timeoutMs);
    const connect = (prime) => {
      const socket = net.connect(Number(target.port), target.hostname);
      socket.setNoDelay(true);
      sockets.add(socket);
      let current = -1; // the request outstanding: its index, PRIMING, or -1 for none
      let head; // bytes of a response head read so far
      let remaining = -1; // body bytes still to come; -1 while reading the head
      const conn = {
        send(i) {
          current = i;
          socket.write(request);
        },
      };
      socket.on('data', (chunk) => {
        if (current === -1) return end('bytes with no request outstanding');
        if (remaining < 0) {
          head = head ? Buffer.concat([head, chunk]) : chunk;
          const at = head.indexOf('\r\n\r\n');
          if (at < 0) return head.length > 65536 ? end('response head over 64 KiB') : undefined;
          const text = head.toString('latin1', 0, at);
          const status = Number(text.slice(9, 12));
          if (status !== expectStatus) return end(`status ${status}`);
          const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(text);
          if (!length) return end('a response without Content-Length');
          remaining = Number(length[1]) - (head.length - at - 4);
          head = undefined;
        } else {
          remaining -= chunk.length;
        }
        if (remaining < 0) return end('more bytes than the Content-Length');
        if (remaining > 0) return;
        remaining = -1;
        if (current === PRIMING) {
          current = -1;
          idle.push(conn);
          if (++primed === connections) begin();
          return;
        }
        latencies[current] = performance.now() - (start + current * intervalMs);
        current = -1;
        if (++finished === total) return end();
        if (waiting.length) conn.send(waiting.shift());
        else idle.push(conn);
      });
      socket.on('error', (err) => end(err.message));
      socket.on('close', () => {
        sockets.delete(socket);
        if (ended) return;
        if (current !== -1) return end('the server closed a connection with a request outstanding');
        const at = idle.indexOf(conn); // closed while idle (the server's keep-alive timeout): open another
        if (at >= 0) idle.splice(at, 1);
        connect(false);
      });
      if (prime) conn.send(PRIMING);
      else idle.push(conn);
    };
    for (let c = 0; c < connections; c++) connect(true);
    const begin = () => {
      start = performance.now();
      clearTimeout(deadline);
      deadline = setTimeout(() => end(`${total - finished} requests unanswered ${timeoutMs} ms after the last was due`), durationS * 1000 + timeoutMs);
      tick();
    };
    const tick = () => {
      if (ended) return;
      const now = Math.min(total, Math.floor((performance.now() - start) / intervalMs) + 1);
      while (due < now) {
        const conn = idle.pop();
        if (conn) conn.send(due);
        else waiting.push(due);
        due++;
      }
      if (due < total) ticker = setTimeout(tick, 1);
    };
  });
}
