import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@mockyard/testkit';

export interface OwnRedis {
  url: string;
  /** SIGTERM and wait for the exit (its append-only file keeps what it had, like a real restart). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and removes its folder. */
  remove(): Promise<void>;
}

/** A private redis-server on a free port, never the shared one: the only Redis a fault test may stop. */
export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'faults-redis-'));
  let child: ChildProcess | undefined;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'everysec', '--dir', dir];
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
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return resolve();
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
    });
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    remove: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
