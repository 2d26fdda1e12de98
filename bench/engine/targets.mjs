// Starting and loading the servers the engine benchmark compares: the Mockyard engine (built, own process),
// WireMock 3 from the `wiremock` npm package's jar, and mockttp (own process) — each with the same stub
// set: N other stubs, the matched target, and a templated stub. Processes go through bench/lib/process.mjs,
// so every one is killed by PID when the benchmark exits, also on failure.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startProcess, waitHealthy } from '../lib/process.mjs';

export { freePort };
export const TARGET_PATH = '/bench/target';
export const TARGET_BODY = JSON.stringify({ id: 42, name: 'Ada Lovelace', roles: ['admin', 'author'], active: true });
export const TEMPLATED_PREFIX = '/bench/templated/';
export const TEMPLATED_PATH = `${TEMPLATED_PREFIX}7?q=ada`;
export const UNMATCHED_PATH = '/bench/unmatched/none?q=ada';
const TEMPLATE = '{"id":"{{request.pathSegments.[2]}}","method":"{{request.method}}","path":"{{request.path}}","q":"{{request.query.q}}","greeting":"Hello {{request.query.q}}!"}';

/** What the templated stub renders for a request (the bare server and mockttp return these bytes). */
export function renderTemplated(method, pathname, q) {
  return `{"id":"${pathname.split('/')[3]}","method":"${method}","path":"${pathname}","q":"${q}","greeting":"Hello ${q}!"}`;
}
export const TEMPLATED_BODY = renderTemplated('GET', TEMPLATED_PATH.split('?')[0], 'ada');

/** The N other stubs (distinct urlPaths), the target stub and the templated stub, in WireMock JSON. */
export function buildStubs(otherCount) {
  const mappings = [];
  for (let i = 0; i < otherCount; i++) {
    mappings.push({ request: { method: 'GET', urlPath: `/bench/other/${i}` }, response: { status: 200, body: `other ${i}` } });
  }
  mappings.push({ request: { method: 'GET', urlPath: TARGET_PATH }, response: { status: 200, headers: { 'Content-Type': 'application/json' }, body: TARGET_BODY } });
  mappings.push({
    request: { method: 'GET', urlPathPattern: `${TEMPLATED_PREFIX}[0-9]+` },
    response: { status: 200, headers: { 'Content-Type': 'application/json' }, body: TEMPLATE, transformers: ['response-template'] },
  });
  return mappings;
}

/** Checks that a started server answers the target and the templated request with the expected bytes. */
export async function checkAnswers(url) {
  for (const [p, expected] of [[TARGET_PATH, TARGET_BODY], [TEMPLATED_PATH, TEMPLATED_BODY]]) {
    const res = await fetch(url + p);
    const body = await res.text();
    if (res.status !== 200 || body !== expected) throw new Error(`${url}${p} answered ${res.status} ${body.slice(0, 200)}, expected ${expected}`);
  }
}

async function importStubs(baseUrl, mappings) {
  const res = await fetch(`${baseUrl}/__admin/mappings/import`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mappings }) });
  if (res.status >= 300) throw new Error(`import answered ${res.status}: ${await res.text()}`);
  await checkAnswers(baseUrl);
}

/** The built Mockyard engine in its own process, journal on (default bound), N other stubs loaded. */
export async function startEngine(repoRoot, otherCount, extraArgs = []) {
  const main = path.join(repoRoot, 'services/engine/dist/main.js');
  if (!existsSync(main)) throw new Error('engine not built: run `npm run build` (or `npx tsc -b services/engine`) first');
  const port = await freePort();
  const rootDir = mkdtempSync(path.join(os.tmpdir(), 'mockyard-bench-'));
  const env = { ...process.env, ENGINE_PORT: String(port), ENGINE_ROOT_DIR: rootDir, LOG_LEVEL: 'WARN' };
  delete env.REDIS_URL; // no traffic publishing, no hub registration: the engine alone
  delete env.HUB_URL;
  const proc = startProcess(`engine (${otherCount})`, process.execPath, [...extraArgs, main], { cwd: repoRoot, env });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(proc, `${url}/__admin/health`, { timeoutMs: 30000 });
  await importStubs(url, buildStubs(otherCount));
  return {
    name: 'mockyard engine',
    url,
    pid: proc.pid,
    stop: async () => {
      await proc.stop();
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

/** WireMock standalone (journal on, bounded like ours), N other stubs loaded; `{skipped}` with a reason when it cannot start. */
export async function startWireMock(repoRoot, otherCount) {
  const jar = findWireMockJar(repoRoot);
  if (!jar) return { skipped: 'wiremock jar not found under node_modules/wiremock/build' };
  const port = await freePort();
  const rootDir = mkdtempSync(path.join(os.tmpdir(), 'wiremock-bench-'));
  const proc = startProcess(`wiremock (${otherCount})`, 'java', ['-jar', jar, '--port', String(port), '--bind-address', '127.0.0.1', '--root-dir', rootDir, '--disable-banner', '--max-request-journal-entries', '10000'], { cwd: repoRoot });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await proc.stop();
    rmSync(rootDir, { recursive: true, force: true });
  };
  try {
    await Promise.race([waitHealthy(proc, `${url}/__admin/health`, { timeoutMs: 60000 }), proc.spawnError.then((err) => Promise.reject(err))]);
    await importStubs(url, buildStubs(otherCount));
  } catch (err) {
    await stop();
    return { skipped: `wiremock did not start: ${err.message.split('\n')[0]}` };
  }
  return { name: `wiremock ${path.basename(jar).replace(/^wiremock-standalone-|\.jar$/g, '')}`, url, pid: proc.pid, stop };
}

/** mockttp in its own process (bench/lib/mockttp-server.mjs) with the same rules; `{skipped}` when it cannot start. */
export async function startMockttp(repoRoot, otherCount) {
  const pkg = path.join(repoRoot, 'node_modules/mockttp/package.json');
  if (!existsSync(pkg)) return { skipped: 'mockttp is not installed under node_modules (run npm install)' };
  const { version } = JSON.parse(readFileSync(pkg, 'utf8'));
  const port = await freePort();
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), '../lib/mockttp-server.mjs');
  const proc = startProcess(`mockttp (${otherCount})`, process.execPath, [script, String(port), String(otherCount)], { cwd: repoRoot });
  const url = `http://127.0.0.1:${port}`;
  try {
    const deadline = Date.now() + 120000;
    while (!proc.output().includes('ready')) {
      if (proc.child.exitCode !== null) throw new Error(`exited: ${proc.output().slice(-500)}`);
      if (Date.now() > deadline) throw new Error('not ready within 120 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    await checkAnswers(url);
  } catch (err) {
    await proc.stop();
    return { skipped: `mockttp did not start: ${err.message.split('\n')[0]}` };
  }
  return { name: `mockttp ${version}`, url, pid: proc.pid, stop: () => proc.stop() };
}
