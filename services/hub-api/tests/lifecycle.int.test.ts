import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildHub, REPO_ROOT } from './support/build-hub';
import { createTestBackends } from './support/start-hub';

jest.setTimeout(60000);

describe('the hub process (dist/main.js)', () => {
  let backends: Awaited<ReturnType<typeof createTestBackends>>;
  beforeAll(async () => {
    backends = await createTestBackends();
    await buildHub();
  });
  afterAll(() => backends?.cleanup());

  it('starts from its configuration, serves, and on SIGTERM closes workers, queues and connections and exits 0', async () => {
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
    const res = await fetch(`http://127.0.0.1:${port}/actuator/health/liveness`);
    expect(res.status).toBe(200);
    // let the repeatable probe run at least once, so a worker is busy or idle with a scheduled job
    await new Promise((r) => setTimeout(r, 500));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out).toContain('"msg":"shut down"');
    expect(out).not.toContain('shutdown step failed');
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
