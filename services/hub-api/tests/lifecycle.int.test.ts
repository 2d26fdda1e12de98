import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildHub, REPO_ROOT } from './support/build-hub';
import { freePort } from '@mockyard/testkit';
import { createTestBackends } from './support/start-hub';

jest.setTimeout(60000);

describe('the hub process (dist/main.js)', () => {
  let backends: Awaited<ReturnType<typeof createTestBackends>>;
  beforeAll(async () => {
    backends = await createTestBackends();
    await buildHub();
  });
  afterAll(() => backends?.cleanup());

  /** Starts dist/main.js and waits for its "listening" line; `log()` is everything it wrote so far. */
  async function startHubProcess(env: Record<string, string>) {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'services', 'hub-api', 'dist', 'main.js')], {
      env: {
        PATH: process.env.PATH ?? '',
        HUB_PORT: '0',
        DATABASE_URL: backends.database.url,
        REDIS_URL: backends.redis.url,
        REDIS_PREFIX: backends.redis.prefix,
        LOCAL_ENGINE_URL: 'http://127.0.0.1:9',
        HUB_HEALTH_PROBE_INTERVAL_MS: '200',
        MOCKYARD_CONFIG_FILE: '/dev/null',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setInterval(() => {
        const line = out.split('\n').find((l) => l.includes('hub-api listening'));
        if (line) {
          clearInterval(timer);
          resolve(JSON.parse(line).port);
        }
        if (child.exitCode !== null) {
          clearInterval(timer);
          reject(new Error(`hub exited early: ${out}`));
        }
      }, 50);
    });
    return { url: `http://127.0.0.1:${port}`, exited, log: () => out, stop: () => child.kill('SIGTERM') };
  }

  it('starts from its configuration, serves, and on SIGTERM closes workers, queues and connections and exits 0', async () => {
    const hub = await startHubProcess({});
    const res = await fetch(`${hub.url}/actuator/health/liveness`);
    expect(res.status).toBe(200);
    // let the repeatable probe run at least once, so a worker is busy or idle with a scheduled job
    await new Promise((r) => setTimeout(r, 500));
    hub.stop();
    expect(await hub.exited).toBe(0);
    expect(hub.log()).toContain('"msg":"shut down"');
    expect(hub.log()).not.toContain('shutdown step failed');
  });

  it('serves the registry while Redis is unreachable, says so in readiness, and still stops cleanly', async () => {
    const hub = await startHubProcess({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    try {
      expect((await fetch(`${hub.url}/actuator/health/liveness`)).status).toBe(200);
      const registry = await fetch(`${hub.url}/hub/admin/registry/servers`);
      expect(registry.status).toBe(200);
      expect(JSON.stringify(await registry.json())).toContain('"id":"local"');
      // fan-out lives in Redis: refused at once instead of waiting for it
      const fanout = await fetch(`${hub.url}/hub/admin/fanout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ all: true, mappings: [{ request: { url: '/x' }, response: { status: 200 } }] }) });
      expect(fanout.status).toBe(503);
      expect((await fanout.json()).detail).toContain('Redis, which is not reachable now');
      expect((await fetch(`${hub.url}/hub/admin/fanout/00000000-0000-4000-8000-000000000000`)).status).toBe(503);
      const ready = await fetch(`${hub.url}/health/ready`);
      expect(ready.status).toBe(503);
      expect((await ready.json()).components.redis.status).toBe('DOWN');
    } finally {
      hub.stop();
    }
    const code = await hub.exited;
    if (code !== 0) process.stderr.write(hub.log());
    expect(code).toBe(0);
  });

  it('refuses to start with a blank API key and says why', () => {
    let failure: { status: number; stderr: string } | undefined;
    try {
      execFileSync(process.execPath, [join(REPO_ROOT, 'services', 'hub-api', 'dist', 'main.js')], {
        env: { PATH: process.env.PATH ?? '', HUB_API_KEY: ' ', MOCKYARD_CONFIG_FILE: '/dev/null' },
        stdio: 'pipe',
      });
    } catch (err) {
      const e = err as { status: number; stderr: Buffer };
      failure = { status: e.status, stderr: String(e.stderr) };
    }
    expect(failure?.status).toBe(1);
    expect(failure?.stderr).toContain('hub.security.api-key');
    expect(failure?.stderr).toContain('must not be blank');
  });
});
