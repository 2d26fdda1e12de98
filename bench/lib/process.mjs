// Processes a benchmark starts: spawned on loopback ports, waited for until healthy, stopped by PID — and
// every one of them killed when the benchmark exits for any reason (normal end, exception, SIGINT/SIGTERM),
// so a failed run never leaves a server behind. Only processes started here are ever signalled.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const started = new Set();

function killAllStarted() {
  for (const child of started) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }
}
process.on('exit', killAllStarted);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    killAllStarted();
    process.exit(130);
  });
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Spawns `command args` and remembers it for the exit handler. Output is kept (last 64 KiB) for error
 * messages; `echo` also writes it to stderr.
 */
export function startProcess(name, command, args, { cwd, env, echo = false } = {}) {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-65536);
    if (echo) process.stderr.write(chunk);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const spawnError = new Promise((resolve) => child.once('error', resolve));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const startedAt = process.hrtime.bigint();
  return {
    name,
    child,
    pid: child.pid,
    startedAt,
    spawnError,
    exited,
    output: () => output,
    stop: () => stopProcess(child),
  };
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
export function stopProcess(child, graceMs = 10000) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      started.delete(child);
      return resolve();
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      started.delete(child);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Polls `url` until it answers with a status below 400 (`okStatus`), the process exits, or `timeoutMs`
 * passes. Returns milliseconds from the process's spawn to the first healthy answer.
 */
export async function waitHealthy(proc, url, { timeoutMs = 60000, intervalMs = 50 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastError = 'no answer';
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null) {
      throw new Error(`${proc.name} exited (${proc.child.exitCode ?? proc.child.signalCode}) before it was healthy:\n${proc.output().slice(-4000)}`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status < 400) return Number(process.hrtime.bigint() - proc.startedAt) / 1e6;
      lastError = `status ${res.status}`;
    } catch (err) {
      lastError = err.message;
    }
    await sleep(intervalMs);
  }
  throw new Error(`${proc.name}: ${url} not healthy within ${timeoutMs} ms (${lastError}):\n${proc.output().slice(-4000)}`);
}

/**
 * Resident memory of a service in MiB, the process at `pid` and its descendants (the gateway's cluster
 * workers): `rss` counts every page once — the processes' private pages summed plus the largest share any of
 * them maps together with other processes (the node binary and its libraries, ~45 MB, which every process of
 * the service maps), so for one process it is its VmRSS; `summed` adds up each process's VmRSS, counting those
 * shared pages once per process. From /proc/<pid>/smaps_rollup (`summed` from /proc/<pid>/status when that is
 * unreadable, and then `rss` too); undefined when the process is gone.
 */
export function readMemory(pid) {
  const pids = [pid, ...descendants(pid)];
  let summed = 0;
  let privateKb = 0;
  let sharedKb = 0;
  let rollups = true;
  let found = false;
  for (const p of pids) {
    const status = readProc(p, 'status');
    const vmRss = status && /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    if (!vmRss) continue;
    found = true;
    summed += Number(vmRss[1]);
    const rollup = readProc(p, 'smaps_rollup');
    if (!rollup) {
      rollups = false;
      continue;
    }
    const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(rollup)?.[1] ?? 0);
    privateKb += kb('Private_Clean') + kb('Private_Dirty');
    sharedKb = Math.max(sharedKb, kb('Shared_Clean') + kb('Shared_Dirty'));
  }
  if (!found) return undefined;
  return { rss: (rollups ? privateKb + sharedKb : summed) / 1024, summed: summed / 1024, processes: pids.length };
}

/** `readMemory(pid).rss`: the service's resident memory in MiB, shared pages counted once. */
export function readRssMb(pid) {
  return readMemory(pid)?.rss;
}

function readProc(pid, file) {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}

function descendants(pid) {
  return childPids(pid).flatMap((child) => [child, ...descendants(child)]);
}

/** Pids of a process's direct children (from /proc; empty elsewhere). */
export function childPids(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) => readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

/**
 * Samples the memory of each `{name, pid}` every `intervalMs` until `stop()`; returns per name the max and
 * the last `rss` (shared pages once, see readMemory) and the max `summed` VmRSS.
 */
/** Highest RSS of each half of a series of samples: a second half above the first says memory still grew. */
export function halvesMax(samples) {
  const mid = Math.floor(samples.length / 2);
  return { first: Math.max(0, ...samples.slice(0, mid)), second: Math.max(0, ...samples.slice(mid)) };
}

export function sampleRss(procs, intervalMs = 250) {
  const max = Object.fromEntries(procs.map((p) => [p.name, 0]));
  const maxSummed = Object.fromEntries(procs.map((p) => [p.name, 0]));
  const last = {};
  /** Every sample, in order, per name: the RSS trend over the run. */
  const series = Object.fromEntries(procs.map((p) => [p.name, []]));
  const take = () => {
    for (const p of procs) {
      const m = readMemory(p.pid);
      if (m !== undefined) {
        max[p.name] = Math.max(max[p.name], m.rss);
        maxSummed[p.name] = Math.max(maxSummed[p.name], m.summed);
        last[p.name] = m.rss;
        series[p.name].push(m.rss);
      }
    }
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      take();
      return { max, maxSummed, last, series };
    },
  };
}

/**
 * Bounds a benchmark's whole run: after `seconds` it reports and exits 1 (the exit handler then kills
 * every process it started).
 */
export function boundRuntime(name, seconds) {
  setTimeout(() => {
    process.stderr.write(`${name}: still running after ${seconds} s; stopping (raise BENCH_MAX_S to allow longer)\n`);
    process.exit(1);
  }, seconds * 1000).unref();
}
