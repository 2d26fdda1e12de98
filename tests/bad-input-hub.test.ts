// Bad input to the hub's write endpoints, sent through the gateway as a user would (engine, hub-api and
// proxy-gateway as processes from their builds): each is a clear 4xx problem naming what was wrong, the
// processes stay healthy, and the registry and the engine's stubs are untouched.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, createTestRedis, freePort, type TestDatabase, type TestRedis } from '@mockyard/testkit';
import { startService, type ServiceProcess } from './faults/support/service-process';

jest.setTimeout(60_000);

let db: TestDatabase;
let redis: TestRedis;
let engineDir: string;
let engine: ServiceProcess;
let hub: ServiceProcess;
let gateway: ServiceProcess;
let serverId: string;
let baselineServers: unknown;
let baselineStubs: unknown;

beforeAll(async () => {
  db = await createTestDatabase();
  redis = createTestRedis();
  engineDir = mkdtempSync(join(tmpdir(), 'bad-input-hub-'));
  engine = await startService('engine', await freePort(), { ENGINE_ROOT_DIR: engineDir });
  hub = await startService('hub-api', await freePort(), {
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    LOCAL_ENGINE_URL: engine.url,
    LOGGER_URL: `http://127.0.0.1:${await freePort()}`,
  });
  const dead = `http://127.0.0.1:${await freePort()}`;
  gateway = await startService('proxy-gateway', await freePort(), {
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    SERVICE_PROXY_PORT: String(await freePort()),
    HUB_API_URL: hub.url,
    LOGGER_URL: dead,
    WEB_URL: dead,
    CAPTURE_ENABLED: 'false',
  });
  const added = await fetch(hubUrl('/registry/servers'), json({ name: 'kept', url: 'http://127.0.0.1:9/kept' }));
  expect(added.status).toBe(201);
  serverId = (await added.json()).id;
  expect((await fetch(hubUrl('/mappings'), json({ request: { method: 'GET', urlPath: '/kept' }, response: { status: 200, body: 'kept' } }))).status).toBe(201);
  baselineServers = await snapshotServers();
  baselineStubs = await (await fetch(hubUrl('/mappings'))).json();
});

afterAll(async () => {
  await Promise.allSettled([gateway?.stop(), hub?.stop(), engine?.stop()]);
  await Promise.allSettled([db?.drop(), redis?.cleanup()]);
  if (engineDir) rmSync(engineDir, { recursive: true, force: true });
});

function hubUrl(path: string) {
  return `${gateway.url}/hub/admin${path}`;
}

function json(body: unknown, method = 'POST') {
  return { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

async function snapshotServers() {
  const list = (await (await fetch(hubUrl('/registry/servers'))).json()) as Record<string, unknown>[];
  return list.map(({ id, name, url, active }) => ({ id, name, url, active }));
}

async function expectUntouched() {
  expect((await fetch(`${hub.url}/health/live`)).status).toBe(200);
  expect(await snapshotServers()).toEqual(baselineServers);
  expect(await (await fetch(hubUrl('/mappings'))).json()).toEqual(baselineStubs);
  expect(await (await fetch(`${engine.url}/kept`)).text()).toBe('kept');
}

const raw = (body: string | Buffer, method = 'POST') => ({ method, headers: { 'content-type': 'application/json' }, body });
const deep = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const invalidUtf8 = (prefix: string, suffix: string) => Buffer.concat([Buffer.from(prefix), Buffer.from([0xff, 0xfe]), Buffer.from(suffix)]);

type Case = [string, string, () => RequestInit, number];
const cases: Case[] = [
  ['malformed JSON to POST /registry/servers', '/registry/servers', () => raw('{"name":'), 400],
  ['oversized JSON (over the 10 MB body limit)', '/registry/servers', () => raw(JSON.stringify({ name: 'x'.repeat(11 * 1024 * 1024), url: 'http://127.0.0.1:1/big' })), 413],
  ['a 2 MB name', '/registry/servers', () => json({ name: 'x'.repeat(2 * 1024 * 1024), url: 'http://127.0.0.1:1/long' }), 400],
  ['a 3000-character URL', '/registry/servers', () => json({ name: 'x', url: `http://127.0.0.1:1/${'u'.repeat(3000)}` }), 400],
  ['a number as name', '/registry/servers', () => json({ name: 5, url: 'http://127.0.0.1:1' }), 400],
  ['a blank name', '/registry/servers', () => json({ name: '  ', url: 'http://127.0.0.1:1' }), 400],
  ['an ftp URL', '/registry/servers', () => json({ name: 'x', url: 'ftp://127.0.0.1/x' }), 400],
  ['a javascript: URL', '/registry/servers', () => json({ name: 'x', url: 'javascript:alert(1)' }), 400],
  ['a relative URL', '/registry/servers', () => json({ name: 'x', url: '/engine' }), 400],
  ['a JSON array', '/registry/servers', () => raw('[]'), 400],
  ['deeply nested JSON', '/registry/servers', () => raw(`{"name":"x","url":"http://127.0.0.1:1","extra":${deep(5000)}}`), 400],
  ['invalid UTF-8 in the name', '/registry/servers', () => raw(invalidUtf8('{"name":"x', '","url":"http://127.0.0.1:1"}')), 400],
  ['malformed JSON to PUT /registry/servers/{id}', '/registry/servers/:id', () => raw('{', 'PUT'), 400],
  ['an empty PATCH', '/registry/servers/:id', () => json({}, 'PATCH'), 400],
  ['a non-http URL in PATCH', '/registry/servers/:id', () => json({ url: 'file:///etc/passwd' }, 'PATCH'), 400],
  ['a malformed id to POST /registry/active', '/registry/active', () => json({ id: 'not-an-id' }), 400],
  ['a number as id to POST /registry/active', '/registry/active', () => json({ id: 5 }), 400],
  ['malformed JSON to POST /mappings', '/mappings', () => raw('{bad'), 400],
  ['a stub without request and response', '/mappings', () => json({ priority: 1 }), 400],
  ['a stub with wrong types', '/mappings', () => json({ request: { method: 5 }, response: { status: 'x' } }), 400],
  ['a stub with an unknown operator', '/mappings', () => json({ request: { url: '/a', headers: { X: { sortOf: 'y' } } }, response: { status: 200 } }), 422],
  ['a stub with an invalid regex', '/mappings', () => json({ request: { urlPattern: '([' }, response: { status: 200 } }), 422],
  ['a stub with a catastrophic regex', '/mappings', () => json({ request: { urlPattern: '/(a+)+$' }, response: { status: 200 } }), 422],
  ['a stub nested 5000 levels deep', '/mappings', () => raw(`{"request":{"url":"/d"},"response":{"status":200,"jsonBody":${deep(5000)}}}`), 400],
  ['a stub with invalid UTF-8', '/mappings', () => raw(invalidUtf8('{"request":{"url":"/u', '"},"response":{"status":200}}')), 400],
  ['a stub with a bodyFileName leaving __files', '/mappings', () => json({ request: { url: '/f' }, response: { status: 200, bodyFileName: '../../etc/passwd' } }), 422],
  ['an ftp target to POST /proxy/enable', '/proxy/enable', () => json({ targetUrl: 'ftp://127.0.0.1/' }), 400],
  ['a number as target to POST /proxy/enable', '/proxy/enable', () => json({ targetUrl: 5 }), 400],
  ['a relative target to POST /recordings/start', '/recordings/start', () => json({ targetUrl: 'nope' }), 400],
];

describe('hub write endpoints through the gateway: bad input', () => {
  it.each(cases)('answers %s with a clear 4xx and changes nothing', async (_name, path, init, status) => {
    const res = await fetch(hubUrl(path.replace(':id', serverId)), init());
    const body = await res.text();
    expect({ status: res.status, body: body.slice(0, 300) }).toEqual({ status, body: expect.any(String) });
    if (status !== 422) expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(body.length).toBeGreaterThan(0);
    await expectUntouched();
  });
});
