// System test of `npm run stack`: the Compose topology as local processes, on free ports, against this
// file's own database and Redis prefix. Needs the build (`npm run build`), as CI does before `npm test`.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createTestDatabase, createTestRedis, freePort, type TestDatabase } from '@mockyard/testkit';

const root = join(__dirname, '..');
jest.setTimeout(120_000);

let db: TestDatabase;
const redis = createTestRedis();
let stack: ChildProcess;
let output = '';
const ports: Record<string, number> = {};

beforeAll(async () => {
  for (const main of ['engine', 'traffic-logger', 'hub-api', 'proxy-gateway']) {
    if (!existsSync(join(root, 'services', main, 'dist/main.js'))) throw new Error(`services/${main} is not built: run npm run build first`);
  }
  if (!existsSync(join(root, 'web/.next/standalone/web/server.js'))) throw new Error('web is not built: run npm run build first');
  db = await createTestDatabase();
  for (const k of ['SERVER_PORT', 'SERVICE_PROXY_PORT', 'ENGINE_PORT', 'LOGGER_PORT', 'HUB_PORT', 'WEB_PORT']) ports[k] = await freePort();
  stack = spawn(process.execPath, [join(root, 'scripts/stack.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      ENGINE_ROOT_DIR: join(require('node:os').tmpdir(), `engine-${redis.prefix}`),
      LOG_LEVEL: 'WARN',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  stack.stdout!.on('data', (c) => (output += c));
  stack.stderr!.on('data', (c) => (output += c));
  const deadline = Date.now() + 100_000;
  while (!output.includes('stack           | ready') && Date.now() < deadline) {
    if (stack.exitCode !== null) throw new Error(`stack exited early:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  if (!output.includes('ready')) throw new Error(`stack did not become ready:\n${output}`);
});

afterAll(async () => {
  if (stack && stack.exitCode === null) stack.kill('SIGKILL');
  await db?.drop();
  await redis.cleanup();
});

describe('npm run stack (the Compose topology as local processes)', () => {
  it('engine answers its WireMock health endpoint (it reserves no path outside /__admin)', async () => {
    const res = await fetch(`http://127.0.0.1:${ports.ENGINE_PORT}/__admin/health`);
    expect({ status: res.status, body: await res.json() }).toMatchObject({ status: 200, body: { status: 'healthy' } });
  });

  it.each([
    ['traffic-logger', 'LOGGER_PORT'],
    ['hub-api', 'HUB_PORT'],
    ['proxy-gateway', 'SERVER_PORT'],
  ])('%s answers /health/live and /health/ready', async (_name, portKey) => {
    const base = `http://127.0.0.1:${ports[portKey]}`;
    expect((await fetch(`${base}/health/live`)).status).toBe(200);
    const ready = await fetch(`${base}/health/ready`);
    expect({ status: ready.status, body: await ready.json() }).toMatchObject({ status: 200, body: { status: 'UP' } });
  });

  it('serves the dashboard', async () => {
    const res = await fetch(`http://127.0.0.1:${ports.WEB_PORT}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
  });

  it('stops every service on SIGTERM within 10 s with exit code 0', async () => {
    const started = Date.now();
    const exited = new Promise<number | null>((resolve) => stack.once('exit', (code) => resolve(code)));
    stack.kill('SIGTERM');
    const code = await exited;
    expect({ code, withinMs: Date.now() - started < 10_000 }).toEqual({ code: 0, withinMs: true });
    expect(output).not.toMatch(/did not stop in 10 s/);
  });
});
