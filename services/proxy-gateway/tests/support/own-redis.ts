import { spawn, type ChildProcess } from 'node:child_process';

export interface OwnRedis {
  url: string;
  /** SIGTERM and wait for the process to exit (a graceful stop: answered commands are on disk). */
  stop(): Promise<void>;
  /** Starts again on the same port and data folder. */
  restart(): Promise<void>;
}

/**
 * A private redis-server child process for tests that break Redis, never the shared one. Its append-only
 * file lives in `dir`, so a stop/start keeps what was written, like a real outage and recovery.
 */
export async function startOwnRedis(port: number, dir: string): Promise<OwnRedis> {
  let child: ChildProcess | undefined;
  const launch = () =>
    new Promise<void>((resolve, reject) => {
      const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir, '--daemonize', 'no'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = proc;
      let out = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10000);
      proc.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}: ${out}`));
      });
    });
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        const proc = child;
        if (!proc || proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
    restart: launch,
  };
}
