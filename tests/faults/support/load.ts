import http from 'node:http';

export interface LoadSample {
  i: number;
  startedAt: number;
  latencyMs: number;
  status: number;
  error?: string;
  /** The first bytes of the body of a non-2xx answer (the problem's detail says why). */
  detail?: string;
}

export interface LoadRun {
  /** Resolves when the load has stopped and every request in flight has ended. */
  done: Promise<LoadSample[]>;
  stop(): void;
  sent(): number;
  samples(): LoadSample[];
}

/**
 * Open-loop load: `ratePerS` requests a second (each built by `request(i)`), at most `maxInFlight` at a
 * time, until stop() or `durationMs`. Bounded by construction; every request has a client-side timeout.
 */
export function startLoad(options: {
  ratePerS: number;
  durationMs?: number;
  maxInFlight?: number;
  timeoutMs?: number;
  request: (i: number) => { url: string; method?: string; headers?: Record<string, string>; body?: string };
}): LoadRun {
  // Idle pooled sockets are closed after 2 s, before the server's keep-alive timeout (Node's default 5 s)
  // can close them: otherwise a request may be written on a socket the server is closing right then and
  // fail with ECONNRESET, a client artefact, not a server fault (seen once in 30,000 soak requests).
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.maxInFlight ?? 32, timeout: 2000 });
  const samples: LoadSample[] = [];
  let stopped = false;
  let sent = 0;
  let inFlight = 0;
  const start = Date.now();
  const intervalMs = 1000 / options.ratePerS;
  const one = (i: number) =>
    new Promise<void>((resolve) => {
      const spec = options.request(i);
      const startedAt = Date.now();
      const finish = (status: number, error?: string, detail?: string) => {
        samples.push({ i, startedAt, latencyMs: Date.now() - startedAt, status, ...(error ? { error } : {}), ...(detail ? { detail } : {}) });
        resolve();
      };
      const url = new URL(spec.url);
      const req = http.request(
        { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: spec.method ?? 'GET', headers: spec.headers, agent, timeout: options.timeoutMs ?? 30_000 },
        (res) => {
          const failed = (res.statusCode ?? 0) >= 300;
          let detail = '';
          res.on('data', (c: Buffer) => {
            if (failed && detail.length < 300) detail += c.toString('utf8');
          });
          res.on('end', () => finish(res.statusCode ?? 0, undefined, failed ? detail.slice(0, 300) : undefined));
          res.on('error', (err) => finish(0, err.message));
        },
      );
      req.on('timeout', () => req.destroy(new Error('client timeout')));
      req.on('error', (err) => finish(0, err.message));
      req.end(spec.body);
    });
  const done = (async () => {
    const pending = new Set<Promise<void>>();
    while (!stopped && (options.durationMs === undefined || Date.now() - start < options.durationMs)) {
      const due = start + sent * intervalMs;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (stopped) break;
      if (inFlight >= (options.maxInFlight ?? 32)) {
        await Promise.race(pending);
        continue;
      }
      const p = one(sent++).finally(() => {
        inFlight--;
        pending.delete(p);
      });
      inFlight++;
      pending.add(p);
    }
    await Promise.all(pending);
    agent.destroy();
    return samples;
  })();
  return { done, stop: () => void (stopped = true), sent: () => sent, samples: () => samples };
}

/** Percentile of latencies (ms), for the report. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The longest stretch (ms) between two consecutive request completions within [from, to]. */
export function longestGapMs(samples: LoadSample[], from: number, to: number): number {
  const ends = samples
    .map((s) => s.startedAt + s.latencyMs)
    .filter((t) => t >= from && t <= to)
    .sort((a, b) => a - b);
  let gap = 0;
  let prev = from;
  for (const t of [...ends, to]) {
    gap = Math.max(gap, t - prev);
    prev = t;
  }
  return gap;
}

export async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await Promise.resolve().then(check).catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not reached in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Writes a figure line to stderr so CI logs keep it (the README's reliability section quotes them). */
export function reportFigure(name: string, figures: Record<string, unknown>): void {
  process.stderr.write(`[faults] ${name}: ${JSON.stringify(figures)}\n`);
}
