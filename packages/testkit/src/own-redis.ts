import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

export interface OwnRedis {
  url: string;
  /** Stops the server and waits for the exit (with SIGTERM, the append-only file keeps what it had). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data folder, like a recovery after an outage. */
  start(): Promise<void>;
  /** Stops it for good and removes its folder. */
  remove(): Promise<void>;
}

export interface OwnRedisOptions {
  /** Append-only persistence across stop/start (`always`, `everysec`), or none (`off`). Default `everysec`. */
  appendfsync?: 'always' | 'everysec' | 'off';
  /** SIGTERM is a graceful stop, SIGKILL a crash. Default SIGTERM. */
  stopSignal?: 'SIGTERM' | 'SIGKILL';
  port?: number;
  dir?: string;
}

/**
 * A private redis-server child process on a free loopback port, for tests that break Redis: never the
 * shared one, which every test run and CI use.
 */
export async function startOwnRedis(options: OwnRedisOptions = {}): Promise<OwnRedis> {
  const port = options.port ?? (await freePort());
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'own-redis-'));
  const fsync = options.appendfsync ?? 'everysec';
  const persistence = fsync === 'off' ? ['--appendonly', 'no'] : ['--appendonly', 'yes', '--appendfsync', fsync];
  let child: ChildProcess | undefined;
  const isRunning = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      if (isRunning()) return resolve();
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', dir, '--daemonize', 'no'];
      const proc = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      child = proc;
      let out = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 15_000);
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
  const stop = () =>
    new Promise<void>((resolve) => {
      const proc = child;
      if (!proc || !isRunning()) return resolve();
      proc.once('exit', () => resolve());
      proc.kill(options.stopSignal ?? 'SIGTERM');
    });
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    remove: async () => {
      await stop();
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
