// Starting and loading the servers the engine benchmark compares: the Mockyard engine (built, own process),
// a bare node:http server returning the same bytes, and WireMock 3 from the `wiremock` npm package's jar.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const TARGET_PATH = '/bench/target';
export const TARGET_BODY = JSON.stringify({ id: 42, name: 'Ada Lovelace', roles: ['admin', 'author'], active: true });

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url, timeoutMs, child) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

function stopChild(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** The N other stubs (distinct urlPaths) plus the target stub, in WireMock JSON. */
export function buildStubs(otherCount) {
  const mappings = [];
  for (let i = 0; i < otherCount; i++) {
    mappings.push({ request: { method: 'GET', urlPath: `/bench/other/${i}` }, response: { status: 200, body: `other ${i}` } });
  }
  mappings.push({ request: { method: 'GET', urlPath: TARGET_PATH }, response: { status: 200, headers: { 'Content-Type': 'application/json' }, body: TARGET_BODY } });
  return mappings;
}

async function importStubs(baseUrl, mappings) {
  const res = await fetch(`${baseUrl}/__admin/mappings/import`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mappings }) });
  if (res.status >= 300) throw new Error(`import answered ${res.status}: ${await res.text()}`);
  const check = await fetch(`${baseUrl}${TARGET_PATH}`);
  const body = await check.text();
  if (check.status !== 200 || body !== TARGET_BODY) throw new Error(`target stub answered ${check.status}`);
}

/** The bare server: node:http, same status, content type and body, nothing else. */
export async function startBare(repoRoot) {
  const port = await freePort();
  const script = `
    const http = require('node:http');
    const body = Buffer.from(${JSON.stringify(TARGET_BODY)});
    http.createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length }); res.end(body); }); })
      .listen(${port}, '127.0.0.1');`;
  const child = spawn(process.execPath, ['-e', script], { cwd: repoRoot, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}${TARGET_PATH}`, 10000, child);
  return { name: 'bare node:http', url, stop: () => stopChild(child) };
}

/** The built Mockyard engine in its own process, journal on (default bound), N other stubs loaded. */
export async function startEngine(repoRoot, otherCount, extraArgs = []) {
  const main = path.join(repoRoot, 'services/engine/dist/main.js');
  if (!existsSync(main)) throw new Error('engine not built: run `npx tsc -b services/engine` first');
  const port = await freePort();
  const rootDir = mkdtempSync(path.join(os.tmpdir(), 'mockyard-bench-'));
  const env = { ...process.env, ENGINE_PORT: String(port), ENGINE_ROOT_DIR: rootDir, LOG_LEVEL: 'WARN' };
  delete env.REDIS_URL; // no traffic publishing, no hub registration: the engine alone
  delete env.HUB_URL;
  const child = spawn(process.execPath, [...extraArgs, main], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'], env });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/__admin/health`, 20000, child);
  await importStubs(url, buildStubs(otherCount));
  return {
    name: 'mockyard engine',
    url,
    pid: child.pid,
    stop: async () => {
      await stopChild(child);
      rmSync(rootDir, { recursive: true, force: true });
    },
  };
}

export function findWireMockJar(repoRoot) {
  const dir = path.join(repoRoot, 'node_modules/wiremock/build');
  if (!existsSync(dir)) return undefined;
  const jar = readdirSync(dir).find((f) => /^wiremock-standalone-.*\.jar$/.test(f));
  return jar ? path.join(dir, jar) : undefined;
}

/** WireMock standalone (journal on, bounded like ours), N other stubs loaded; undefined with a reason when it cannot start. */
export async function startWireMock(repoRoot, otherCount) {
  const jar = findWireMockJar(repoRoot);
  if (!jar) return { skipped: 'wiremock jar not found under node_modules/wiremock/build' };
  const port = await freePort();
  const rootDir = mkdtempSync(path.join(os.tmpdir(), 'wiremock-bench-'));
  const child = spawn('java', ['-jar', jar, '--port', String(port), '--bind-address', '127.0.0.1', '--root-dir', rootDir, '--disable-banner', '--max-request-journal-entries', '10000'], {
    cwd: repoRoot,
    stdio: 'ignore',
  });
  const spawnError = new Promise((resolve) => child.once('error', (err) => resolve(err)));
  const url = `http://127.0.0.1:${port}`;
  try {
    await Promise.race([waitForHttp(`${url}/__admin/health`, 60000, child), spawnError.then((err) => Promise.reject(err))]);
    await importStubs(url, buildStubs(otherCount));
  } catch (err) {
    await stopChild(child);
    rmSync(rootDir, { recursive: true, force: true });
    return { skipped: `wiremock did not start: ${err.message}` };
  }
  return {
    name: `wiremock ${path.basename(jar).replace(/^wiremock-standalone-|\.jar$/g, '')}`,
    url,
    stop: async () => {
      await stopChild(child);
      rmSync(rootDir, { recursive: true, force: true });
    },
  };
}
