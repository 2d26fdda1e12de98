import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { call, startUpstream } from './engine-harness';

// The engine as it runs in production: the built main.ts in its own process, configured by environment.
const repoRoot = path.resolve(__dirname, '../../..');
const mainJs = path.join(repoRoot, 'services/engine/dist/main.js');

/** Collects the child's JSON log lines from the start, so a line logged before anyone waits is not missed. */
function watchLog(child: ChildProcess) {
  const lines: Record<string, unknown>[] = [];
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) if (line.trim()) lines.push(JSON.parse(line));
  });
  return async (message: string, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = lines.find((l) => l.msg === message);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no "${message}" log line within ${timeoutMs} ms; saw ${lines.map((l) => l.msg).join(', ')}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
}

describe('the engine process (dist/main.js)', () => {
  beforeAll(() => {
    const build = spawnSync(process.execPath, [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-b', 'services/engine/tsconfig.json'], { cwd: repoRoot, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`engine build failed: ${build.stdout}${build.stderr}`);
  }, 120000);

  it('loads its root dir, registers with the hub, serves, and stops its loops and exits 0 on SIGTERM', async () => {
    const hub = await startUpstream((_req, _body, res) => res.writeHead(201).end('{}'));
    const rootDir = mkdtempSync(path.join(os.tmpdir(), 'mockyard-engine-main-'));
    const child = spawn(process.execPath, [mainJs], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH, ENGINE_PORT: '0', ENGINE_ROOT_DIR: rootDir, ENGINE_NAME: 'proc-engine', HUB_URL: hub.url, ENGINE_HEARTBEAT_MS: '100', LOG_LEVEL: 'INFO' },
    });
    const waitForLog = watchLog(child);
    try {
      const listening = await waitForLog('engine listening', 15000);
      const url = `http://127.0.0.1:${listening.port}`;
      expect(listening.publicUrl).toBe(url);
      expect((await call(url, 'POST', '/__admin/mappings', { request: { urlPath: '/p' }, response: { body: 'from process' } })).status).toBe(201);
      expect((await call(url, 'GET', '/p')).text).toBe('from process');
      await waitForLog('registered with hub', 5000);
      expect(JSON.parse(hub.received[0].body.toString())).toEqual({ name: 'proc-engine', url });

      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const afterExit = hub.received.length;
      await new Promise((r) => setTimeout(r, 300));
      expect(hub.received.length).toBe(afterExit);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await hub.close();
      rmSync(rootDir, { recursive: true, force: true });
    }
  }, 30000);

  it('applies engine.outbound.* from the environment to proxy stubs, and refuses to start on an invalid entry', async () => {
    const rootDir = mkdtempSync(path.join(os.tmpdir(), 'mockyard-engine-main-'));
    const env = { PATH: process.env.PATH, ENGINE_PORT: '0', ENGINE_ROOT_DIR: rootDir, LOG_LEVEL: 'INFO' };
    const child = spawn(process.execPath, [mainJs], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, ENGINE_OUTBOUND_DENY: '10.9.9.0/24' } });
    const waitForLog = watchLog(child);
    try {
      const url = `http://127.0.0.1:${(await waitForLog('engine listening', 15000)).port}`;
      await call(url, 'POST', '/__admin/mappings', { request: { urlPath: '/out' }, response: { proxyBaseUrl: 'http://10.9.9.9' } });
      const res = await call(url, 'GET', '/out');
      expect(res.status).toBe(500);
      expect(res.text).toContain('refused by engine.outbound.deny entry 10.9.9.0/24');
    } finally {
      child.kill('SIGTERM');
      rmSync(rootDir, { recursive: true, force: true });
    }
    const invalid = spawnSync(process.execPath, [mainJs], { cwd: repoRoot, encoding: 'utf8', timeout: 15000, env: { ...env, ENGINE_OUTBOUND_ALLOW: 'example.com,not a host!' } });
    expect(invalid.status).toBe(1);
    expect(invalid.stderr).toContain('engine.outbound.allow');
    expect(invalid.stderr).toContain('"not a host!" is not a host name, *.suffix, IP address or CIDR');
  }, 30000);
});
