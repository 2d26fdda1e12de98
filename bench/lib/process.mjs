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

/** Resident set size of a process in MiB, from /proc/<pid>/status (VmRSS); undefined when unavailable. */
export function readRssMb(pid) {
  const own = ownRssMb(pid);
  if (own === undefined) return undefined;
  // A service that runs as several processes (the gateway's cluster workers) counts them all.
  return childPids(pid).reduce((sum, child) => sum + (readRssMb(child) ?? 0), own);
}

function ownRssMb(pid) {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Pids of a process's direct children (from /proc; empty elsewhere). */
export function childPids(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) => readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

/** Samples the RSS of each `{name, pid}` every `intervalMs` until `stop()`; returns the max per name. */
export function sampleRss(procs, intervalMs = 250) {
  const max = Object.fromEntries(procs.map((p) => [p.name, 0]));
  const last = {};
  const take = () => {
    for (const p of procs) {
      const mb = readRssMb(p.pid);
      if (mb !== undefined) {
        max[p.name] = Math.max(max[p.name], mb);
        last[p.name] = mb;
      }
    }
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      take();
      return { max, last };
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
