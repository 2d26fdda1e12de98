import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';
import { createTestDatabase, type TestDatabase } from './test-database';
import { createTestRedis } from './test-redis';

// The repository root (this file is packages/testkit/src/start-stack.ts).
const root = join(__dirname, '..', '..', '..');

export type RunningStack = {
  gatewayUrl: string;
  engineUrl: string;
  hubUrl: string;
  ports: Record<string, number>;
  output: () => string;
  /** SIGTERM to the launcher (SIGKILL after 15 s), then drops the database and Redis keys. */
  stop: () => Promise<void>;
  /** How the launcher exited after stop(): its exit code and how long SIGTERM took. */
  stopped: () => { code: number | null; ms: number } | undefined;
};

/**
 * The whole topology as processes (`scripts/stack.mjs`) on free ports, with this file's own database and
 * Redis prefix: the dashboard is driven through the gateway, as a user reaches it.
 */
export async function startStack(extraEnv: Record<string, string> = {}): Promise<RunningStack> {
  for (const service of ['engine', 'traffic-logger', 'hub-api', 'proxy-gateway']) {
    if (!existsSync(join(root, 'services', service, 'dist/main.js'))) throw new Error(`services/${service} is not built: run npm run build first`);
  }
  if (!existsSync(join(root, 'web/.next/standalone/web/server.js'))) throw new Error('web is not built: run npm run build first');
  const db: TestDatabase = await createTestDatabase();
  const redis = createTestRedis();
  const ports: Record<string, number> = {};
  for (const key of ['SERVER_PORT', 'SERVICE_PROXY_PORT', 'ENGINE_PORT', 'LOGGER_PORT', 'HUB_PORT', 'WEB_PORT']) ports[key] = await freePort();
  let output = '';
  const engineRootDir = mkdtempSync(join(tmpdir(), 'web-engine-'));
  const child: ChildProcess = spawn(process.execPath, [join(root, 'scripts/stack.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      ENGINE_ROOT_DIR: engineRootDir,
      LOG_LEVEL: 'WARN',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 90_000;
  while (!/stack\s+\| ready/.test(output)) {
    if (child.exitCode !== null) throw new Error(`stack exited early:\n${output}`);
    if (Date.now() > deadline) throw new Error(`stack did not become ready:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const url = (port: number) => `http://127.0.0.1:${port}`;
  let stopped: { code: number | null; ms: number } | undefined;
  return {
    stopped: () => stopped,
    gatewayUrl: url(ports.SERVER_PORT),
    engineUrl: url(ports.ENGINE_PORT),
    hubUrl: url(ports.HUB_PORT),
    ports,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const started = Date.now();
        const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        stopped = { code: await exited, ms: Date.now() - started };
        clearTimeout(timer);
      }
      await db.drop();
      await redis.cleanup();
      rmSync(engineRootDir, { recursive: true, force: true });
    },
  };
}

/** A second engine process (no self-registration), for the fleet and "switch the active engine" flows. */
export async function startExtraEngine(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  // No HUB_URL (no self-registration: the test registers it through the UI) and no REDIS_URL (its traffic
  // would go to the default stream prefix, outside this test's own).
  const { HUB_URL: _hub, REDIS_URL: _redis, HUB_API_KEY: _key, ...env } = process.env;
  const rootDir = mkdtempSync(join(tmpdir(), 'web-engine2-'));
  const child = spawn(process.execPath, [join(root, 'services/engine/dist/main.js')], {
    cwd: root,
    env: { ...env, ENGINE_PORT: String(port), ENGINE_NAME: 'second', ENGINE_ROOT_DIR: rootDir, LOG_LEVEL: 'WARN' },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/__admin/health`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('the extra engine did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(rootDir, { recursive: true, force: true });
    },
  };
}
