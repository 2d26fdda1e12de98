import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');

export type ServiceName = 'engine' | 'traffic-logger' | 'hub-api' | 'proxy-gateway';

export interface ServiceProcess {
  name: ServiceName;
  url: string;
  pid: () => number;
  output: () => string;
  /** Resident set size of the process now, from /proc (bytes). */
  rssBytes: () => number;
  /** Sends a signal without waiting (SIGSTOP/SIGCONT freeze and thaw the process). */
  signal: (signal: NodeJS.Signals) => void;
  /** Sends a signal and waits for the exit. */
  kill: (signal: NodeJS.Signals) => Promise<void>;
  /** Starts the same service again with the same environment (same port). */
  restart: () => Promise<void>;
  /** SIGTERM, then SIGKILL after 15 s; safe to call twice. */
  stop: () => Promise<void>;
}

const portKey: Record<ServiceName, string> = {
  engine: 'ENGINE_PORT',
  'traffic-logger': 'LOGGER_PORT',
  'hub-api': 'HUB_PORT',
  'proxy-gateway': 'SERVER_PORT',
};

const healthPath: Record<ServiceName, string> = {
  engine: '/__admin/health',
  'traffic-logger': '/health/live',
  'hub-api': '/health/live',
  'proxy-gateway': '/health/live',
};

/**
 * One service from its build (`services/<name>/dist/main.js`) as a real child process, so SIGKILL and a
 * restart are real. `port` is the one its port key is set to; `env` carries the rest of its config.
 */
export async function startService(name: ServiceName, port: number, env: Record<string, string>): Promise<ServiceProcess> {
  const main = join(root, 'services', name, 'dist/main.js');
  if (!existsSync(main)) throw new Error(`services/${name} is not built: run npm run build first`);
  let child: ChildProcess | undefined;
  let output = '';
  const url = `http://127.0.0.1:${port}`;
  const launch = async () => {
    const proc = spawn(process.execPath, [main], { cwd: root, env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'WARN', ...env, [portKey[name]]: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    const keep = (c: Buffer) => {
      output = (output + c.toString()).slice(-200_000);
    };
    proc.stdout!.on('data', keep);
    proc.stderr!.on('data', keep);
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`${name} exited with ${proc.exitCode}:\n${output}`);
      try {
        // 200 only: another server that took the port would answer its own 404 to this path
        if ((await fetch(`${url}${healthPath[name]}`, { signal: AbortSignal.timeout(2000) })).ok) return;
      } catch {
        /* not up yet */
      }
      if (Date.now() > deadline) throw new Error(`${name} did not start in 60 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 150));
    }
  };
  const kill = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      const proc = child;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return resolve();
      proc.once('exit', () => resolve());
      proc.kill(signal);
    });
  await launch();
  return {
    name,
    url,
    pid: () => child!.pid!,
    output: () => output,
    rssBytes: () => readRssBytes(child!.pid!),
    signal: (sig) => void child?.kill(sig),
    kill,
    restart: launch,
    stop: async () => {
      child?.kill('SIGCONT');
      const timer = setTimeout(() => child?.kill('SIGKILL'), 15_000);
      await kill('SIGTERM');
      clearTimeout(timer);
    },
  };
}

export function readRssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status);
  return kb ? Number(kb[1]) * 1024 : 0;
}
