import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@mockyard/testkit';

const bin = '/usr/lib/postgresql/15/bin';

export interface OwnPostgres {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  remove(): Promise<void>;
}

/**
 * A private PostgreSQL cluster (initdb + pg_ctl) on a free port, never the shared one. initdb refuses to
 * run as root, so as root the cluster belongs to the `postgres` user.
 */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'faults-pg-'));
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  // Asynchronous, so a load loop in the test process keeps running while the database stops and starts.
  const run = async (tool: string, args: string[]) => {
    const [cmd, all] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
    await promisify(execFile)(cmd as string, all as string[], { timeout: 60_000 });
  };
  const data = join(dir, 'data');
  await run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-N']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const start = () => run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  await start();
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    remove: async () => {
      try {
        await stop();
      } catch {
        /* already stopped */
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
