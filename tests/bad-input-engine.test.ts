// Bad input to the engine's admin API (the engine process from its build, on a free port): every malformed,
// oversized, wrongly typed, dangerous or undecodable stub definition is a clear 4xx naming the problem, the
// process stays healthy, and the stubs it already had are untouched.
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@mockyard/testkit';
import { startService, type ServiceProcess } from './faults/support/service-process';

jest.setTimeout(60_000);
const MAX_ADMIN_BODY_BYTES = 64 * 1024;

let engine: ServiceProcess;
let rootDir: string;
let baseline: unknown;
let seedId: string;

beforeAll(async () => {
  rootDir = mkdtempSync(join(tmpdir(), 'bad-input-engine-'));
  engine = await startService('engine', await freePort(), { ENGINE_ROOT_DIR: rootDir, ENGINE_ADMIN_MAX_BODY_BYTES: String(MAX_ADMIN_BODY_BYTES) });
  const seed = await fetch(`${engine.url}/__admin/mappings`, {
    method: 'POST',
    body: JSON.stringify({ request: { method: 'GET', urlPath: '/seed' }, response: { status: 200, body: 'seed' }, persistent: true }),
  });
  expect(seed.status).toBe(201);
  seedId = (await seed.json()).id;
  baseline = await (await fetch(`${engine.url}/__admin/mappings`)).json();
});

afterAll(async () => {
  await engine?.stop();
  if (rootDir) rmSync(rootDir, { recursive: true, force: true });
});

const stub = (request: unknown, response: unknown = { status: 200 }) => JSON.stringify({ request, response });
const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

// [case, body, status, what the error must name]
const badStubs: [string, string | Buffer, number, RegExp][] = [
  ['malformed JSON', '{bad', 422, /Error parsing JSON/],
  ['truncated JSON', '{"request":{"url":"/a"}', 422, /Error parsing JSON/],
  ['a JSON array instead of an object', '[]', 422, /must be a JSON object/],
  ['JSON null', 'null', 422, /must be a JSON object/],
  ['oversized JSON', stub({ url: '/big' }, { status: 200, body: 'x'.repeat(MAX_ADMIN_BODY_BYTES) }), 413, /too large/],
  ['a number as method', stub({ method: 5 }), 422, /\/request\/method/],
  ['a string as status', stub({ url: '/a' }, { status: 'x' }), 422, /\/response\/status/],
  ['an out-of-range status', stub({ url: '/a' }, { status: 99999 }), 422, /\/response\/status/],
  ['a string as priority', JSON.stringify({ request: { url: '/a' }, response: { status: 200 }, priority: 'high' }), 422, /\/priority/],
  ['headers as a string', stub({ url: '/a', headers: 'x' }), 422, /\/request\/headers/],
  ['an unknown operator', stub({ url: '/a', headers: { X: { sortOf: 'y' } } }), 422, /unknown match operator 'sortOf'/],
  ['an unknown top-level field', JSON.stringify({ request: { url: '/a' }, response: { status: 200 }, unknownField: 1 }), 422, /unknownField/],
  ['an invalid urlPattern regex', stub({ urlPattern: '/a([' }), 422, /invalid regex/],
  ['an invalid body regex', stub({ url: '/a', bodyPatterns: [{ matches: '*x' }] }), 422, /invalid regex/],
  ['a catastrophic urlPattern (nested repetition)', stub({ urlPattern: '/(a+)+$' }), 422, /backtrack catastrophically/],
  ['a catastrophic header regex', stub({ url: '/a', headers: { X: { matches: '(x+x+)+y' } } }), 422, /backtrack catastrophically/],
  ['a catastrophic body regex (overlapping alternation)', stub({ url: '/a', bodyPatterns: [{ matches: '(a|aa)+$' }] }), 422, /backtrack catastrophically/],
  ['a catastrophic query regex (repeated .*)', stub({ url: '/a', queryParameters: { q: { matches: '(.*a){12}' } } }), 422, /backtrack catastrophically/],
  ['deeply nested JSON (5000 levels)', stub({ url: '/deep', bodyPatterns: [{ equalToJson: 'PLACEHOLDER' }] }).replace('"PLACEHOLDER"', nested(5000)), 422, /nests deeper/],
  ['a deeply nested jsonBody', stub({ url: '/deep' }, { status: 200, jsonBody: 'P' }).replace('"P"', '['.repeat(5000) + ']'.repeat(5000)), 422, /nests deeper/],
  ['invalid UTF-8', Buffer.concat([Buffer.from('{"request":{"url":"/u'), Buffer.from([0xff, 0xfe]), Buffer.from('"},"response":{"status":200}}')]), 422, /not valid UTF-8/],
  ['bodyFileName ../ traversal', stub({ url: '/f' }, { status: 200, bodyFileName: '../../../etc/passwd' }), 422, /bodyFileName/],
  ['bodyFileName absolute path', stub({ url: '/f' }, { status: 200, bodyFileName: '/etc/passwd' }), 422, /bodyFileName/],
  ['bodyFileName traversal in the middle', stub({ url: '/f' }, { status: 200, bodyFileName: 'a/../../x' }), 422, /bodyFileName/],
];

async function expectUntouched() {
  expect((await fetch(`${engine.url}/__admin/health`)).status).toBe(200);
  expect(await (await fetch(`${engine.url}/__admin/mappings`)).json()).toEqual(baseline);
  expect(await (await fetch(`${engine.url}/seed`)).text()).toBe('seed');
}

describe('engine admin API: bad stub definitions', () => {
  it.each(badStubs)('POST /__admin/mappings with %s answers a clear 4xx and stores nothing', async (_name, body, status, names) => {
    const res = await fetch(`${engine.url}/__admin/mappings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(status);
    expect(await res.text()).toMatch(names);
    await expectUntouched();
  });

  it.each(badStubs.filter(([, , status]) => status === 422))('PUT /__admin/mappings/{id} with %s answers 422 and leaves the stub as it was', async (_name, body) => {
    const res = await fetch(`${engine.url}/__admin/mappings/${seedId}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(422);
    await expectUntouched();
  });

  it('rejects an import with one bad stub as a whole (all or nothing)', async () => {
    const res = await fetch(`${engine.url}/__admin/mappings/import`, {
      method: 'POST',
      body: JSON.stringify({ mappings: [{ request: { url: '/ok' }, response: { status: 200 } }, { request: { urlPattern: '(a+)+$' }, response: {} }], importOptions: { deleteAllNotInImport: true } }),
    });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('/mappings/1/request/urlPattern');
    await expectUntouched();
  });

  it.each([
    ['settings with a string delay', 'POST', '/__admin/settings', '{"fixedDelay":"slow"}', 422],
    ['a catastrophic regex in a journal query', 'POST', '/__admin/requests/count', '{"urlPattern":"(a+)+$"}', 422],
    ['malformed JSON to recordings/start', 'POST', '/__admin/recordings/start', '{', 422],
    ['a body file path leaving __files', 'PUT', '/__admin/files/..%2F..%2Fescape', 'x', 400],
  ])('answers %s with a clear 4xx', async (_name, method, path, body, status) => {
    const res = await fetch(`${engine.url}${path}`, { method, body });
    expect(res.status).toBe(status);
    expect((await res.json()).errors[0]).toEqual(expect.objectContaining({ title: expect.any(String) }));
    await expectUntouched();
  });

  it('never serves a file outside __files through a templated bodyFileName', async () => {
    const created = await fetch(`${engine.url}/__admin/mappings`, {
      method: 'POST',
      body: JSON.stringify({ request: { urlPath: '/tpl' }, response: { status: 200, bodyFileName: '{{request.query.f}}', transformers: ['response-template'] } }),
    });
    expect(created.status).toBe(201);
    try {
      const res = await fetch(`${engine.url}/tpl?f=${encodeURIComponent('../../../../etc/passwd')}`);
      const text = await res.text();
      expect(text).not.toContain('root:');
      expect(text).toContain('must stay inside __files');
    } finally {
      await fetch(`${engine.url}/__admin/mappings/${(await created.json()).id}`, { method: 'DELETE' });
    }
    await expectUntouched();
  });

  it('answers a request nested deeper than 1000 levels against a JSON stub as not matched, not as an error', async () => {
    const created = await fetch(`${engine.url}/__admin/mappings`, { method: 'POST', body: stub({ urlPath: '/json', bodyPatterns: [{ equalToJson: { a: 1 } }] }) });
    try {
      const res = await fetch(`${engine.url}/json`, { method: 'POST', body: '['.repeat(200_000) + ']'.repeat(200_000) });
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('Request was not matched');
    } finally {
      await fetch(`${engine.url}/__admin/mappings/${(await created.json()).id}`, { method: 'DELETE' });
    }
    await expectUntouched();
  });

  it('answers huge request headers with 431 and keeps serving', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(new URL(engine.url).port), '127.0.0.1', () => {
        socket.write(`GET /seed HTTP/1.1\r\nHost: x\r\nX-Huge: ${'a'.repeat(100_000)}\r\n\r\n`);
      });
      let data = '';
      socket.on('data', (c) => (data += c.toString()));
      socket.on('close', () => resolve(data));
      socket.on('error', (err) => (data ? resolve(data) : reject(err)));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 431/);
    await expectUntouched();
  });
});
