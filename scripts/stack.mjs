#!/usr/bin/env node
// The Compose topology without Docker: every service as a local process against the PostgreSQL and
// Redis given by DATABASE_URL / REDIS_URL. `npm run stack` runs the built services; `npm run dev`
// rebuilds on change (tsc --watch + node --watch + next dev).
//
// Ports come from the same keys the services read (SERVER_PORT, SERVICE_PROXY_PORT, ENGINE_PORT,
// LOGGER_PORT, HUB_PORT, WEB_PORT), so a test can run a whole stack on free ports.
// SIGTERM/SIGINT stop every service through its own graceful shutdown; exit code 0 when all did.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.includes('--dev');
const env = process.env;
const ports = {
  gateway: Number(env.SERVER_PORT ?? 8080),
  forward: Number(env.SERVICE_PROXY_PORT ?? 8888),
  engine: Number(env.ENGINE_PORT ?? 9090),
  logger: Number(env.LOGGER_PORT ?? 8081),
  hub: Number(env.HUB_PORT ?? 8082),
  web: Number(env.WEB_PORT ?? 3000),
};
const base = {
  ...env,
  DATABASE_URL: env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/mockyard',
  REDIS_URL: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  NEXT_TELEMETRY_DISABLED: '1',
};
const url = (port) => `http://127.0.0.1:${port}`;

const services = [
  {
    name: 'engine',
    main: 'services/engine/dist/main.js',
    env: { ENGINE_PORT: String(ports.engine), ENGINE_PUBLIC_URL: env.ENGINE_PUBLIC_URL ?? url(ports.engine) },
    // The engine reserves no path outside /__admin (any other path may be a stub): WireMock's health.
    health: `${url(ports.engine)}/__admin/health`,
  },
  { name: 'traffic-logger', main: 'services/traffic-logger/dist/main.js', env: { LOGGER_PORT: String(ports.logger) }, health: `${url(ports.logger)}/health/ready` },
  {
    name: 'hub-api',
    main: 'services/hub-api/dist/main.js',
    env: { HUB_PORT: String(ports.hub), LOCAL_ENGINE_URL: url(ports.engine), LOGGER_URL: url(ports.logger) },
    health: `${url(ports.hub)}/health/ready`,
  },
  {
    name: 'web',
    web: true,
    env: { PORT: String(ports.web), HOSTNAME: '127.0.0.1', GATEWAY_URL: url(ports.gateway) },
    health: `${url(ports.web)}/`,
  },
  {
    name: 'proxy-gateway',
    main: 'services/proxy-gateway/dist/main.js',
    env: {
      SERVER_PORT: String(ports.gateway),
      SERVICE_PROXY_PORT: String(ports.forward),
      LOGGER_URL: url(ports.logger),
      HUB_API_URL: url(ports.hub),
      WEB_URL: url(ports.web),
    },
    health: `${url(ports.gateway)}/health/ready`,
  },
];

const children = new Map();
let stopping = false;

function log(name, line) {
  process.stdout.write(`${name.padEnd(15)}| ${line}\n`);
}

function commandFor(svc) {
  if (svc.web) {
    if (dev) return [process.execPath, [join(root, 'node_modules/next/dist/bin/next'), 'dev', '-p', String(ports.web), '-H', '127.0.0.1'], join(root, 'web')];
    const server = join(root, 'web/.next/standalone/web/server.js');
    if (!existsSync(server)) return null;
    return [process.execPath, [server], join(root, 'web')];
  }
  const main = join(root, svc.main);
  const args = dev ? ['--watch-path', dirname(main), '--watch-preserve-output', main] : [main];
  return [process.execPath, args, root];
}

function start(svc) {
  const cmd = commandFor(svc);
  if (!cmd) {
    log(svc.name, 'not built (run `npm run build`); skipped');
    return;
  }
  const [bin, args, cwd] = cmd;
  const child = spawn(bin, args, { cwd, env: { ...base, ...svc.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.set(svc.name, child);
  for (const stream of [child.stdout, child.stderr]) {
    let buf = '';
    stream.on('data', (chunk) => {
      buf += chunk;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        log(svc.name, buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
    });
  }
  child.on('exit', (code, signal) => {
    log(svc.name, `exited (${signal ?? code})`);
    child.exitCode_ = code ?? 1;
    if (!stopping) void stop(`${svc.name} exited`, 1);
  });
}

async function waitHealthy(svc, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stopping) {
    try {
      const res = await fetch(svc.health, { signal: AbortSignal.timeout(2000) });
      if (res.status < 500) return true;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

async function migrate() {
  if (dev && !existsSync(join(root, 'packages/db/dist/migrate-cli.js'))) return;
  await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'packages/db/dist/migrate-cli.js')], { cwd: root, env: base, stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`db:migrate exited with ${code}`))));
  });
}

async function stop(reason, code = 0) {
  if (stopping) return;
  stopping = true;
  log('stack', `stopping (${reason})`);
  const exits = [...children.entries()].reverse().map(
    ([name, child]) =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode ?? 1);
        child.once('exit', (c) => resolve(c ?? 1));
        child.kill('SIGTERM');
        setTimeout(() => {
          if (child.exitCode === null) {
            log(name, 'did not stop in 10 s; killing');
            child.kill('SIGKILL');
          }
        }, 10000).unref();
      }),
  );
  const codes = await Promise.all(exits);
  // Next's standalone server answers SIGTERM with exit code 143 (128 + SIGTERM) by design.
  const clean = [...children.keys()].reverse().every((name, i) => codes[i] === 0 || (name === 'web' && codes[i] === 143));
  process.exit(code !== 0 ? code : clean ? 0 : 1);
}

process.once('SIGTERM', () => void stop('SIGTERM'));
process.once('SIGINT', () => void stop('SIGINT'));

let tsc;
if (dev) {
  tsc = spawn(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', '-w', '--preserveWatchOutput', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
  children.set('tsc', tsc);
}

try {
  await migrate();
} catch (err) {
  log('stack', err.message);
  await stop('migration failed', 1);
}
for (const svc of services) {
  start(svc);
  if (children.has(svc.name) && !(await waitHealthy(svc))) {
    log(svc.name, 'did not become healthy in 60 s');
    await stop(`${svc.name} unhealthy`, 1);
  }
}
log('stack', `ready: gateway ${url(ports.gateway)} (forward proxy :${ports.forward}), engine ${url(ports.engine)}`);
