import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { freePort } from '@mockyard/testkit';
import { call, startTestEngine, startUpstream, type TestEngine } from './engine-harness';

// Differential test: the same admin calls against a genuine WireMock 3 (the jar the `wiremock` npm package
// ships, run with the local Java) and against the engine; status codes and error codes must agree.
const jarDir = path.resolve(__dirname, '../../../node_modules/wiremock/build');
const jar = existsSync(jarDir) ? readdirSync(jarDir).find((f) => /^wiremock-standalone-.*\.jar$/.test(f)) : undefined;
const hasJava = spawnSync('java', ['-version']).status === 0;
const describeIfWireMock = jar && hasJava ? describe : describe.skip;
if (!jar || !hasJava) process.stderr.write('wiremock-parity: skipped (no Java or no wiremock jar under node_modules/wiremock/build)\n');

const ID = '00000000-0000-4000-8000-0000000000a1';
const UNKNOWN = '00000000-0000-4000-8000-0000000000ff';
const PROBES: [string, string, string, unknown?][] = [
  ['create a stub', 'POST', '/__admin/mappings', { id: ID, request: { method: 'GET', urlPath: '/p' }, response: { status: 200, body: 'p' }, scenarioName: 's', requiredScenarioState: 'Started' }],
  ['create with a taken id', 'POST', '/__admin/mappings', { id: ID, request: { urlPath: '/q' }, response: { status: 200 } }],
  ['create with a bad regex', 'POST', '/__admin/mappings', { request: { urlPathPattern: '/(x' }, response: { status: 200 } }],
  ['create with an unknown field', 'POST', '/__admin/mappings', { request: { urlPath: '/x' }, response: {}, requestt: {} }],
  ['create from broken JSON', 'POST', '/__admin/mappings', '{"request": '],
  ['get a stub', 'GET', `/__admin/mappings/${ID}`],
  ['get a stub by its id in upper case', 'GET', `/__admin/mappings/${ID.toUpperCase()}`],
  ['get an unknown stub', 'GET', `/__admin/mappings/${UNKNOWN}`],
  ['replace an unknown stub', 'PUT', `/__admin/mappings/${UNKNOWN}`, { request: { urlPath: '/x' }, response: {} }],
  ['delete an unknown stub', 'DELETE', `/__admin/mappings/${UNKNOWN}`],
  ['call the stub', 'GET', '/p'],
  ['call nothing', 'GET', '/nothing'],
  ['count requests', 'POST', '/__admin/requests/count', { urlPath: '/p' }],
  ['list requests', 'GET', '/__admin/requests?limit=5'],
  ['list unmatched requests', 'GET', '/__admin/requests/unmatched'],
  ['near misses of unmatched', 'GET', '/__admin/requests/unmatched/near-misses'],
  ['stop a recording that never started', 'POST', '/__admin/recordings/stop'],
  ['recording status', 'GET', '/__admin/recordings/status'],
  ['list scenarios', 'GET', '/__admin/scenarios'],
  ['set an unknown scenario', 'PUT', '/__admin/scenarios/unknown/state', { state: 'x' }],
  ['set a state the scenario lacks', 'PUT', '/__admin/scenarios/s/state', { state: 'bogus' }],
  ['set a state the scenario has', 'PUT', '/__admin/scenarios/s/state', { state: 'Started' }],
  ['update settings', 'POST', '/__admin/settings', { fixedDelay: 0 }],
  ['read settings', 'GET', '/__admin/settings'],
  ['import stubs', 'POST', '/__admin/mappings/import', { mappings: [{ request: { urlPath: '/i' }, response: { status: 200 } }] }],
  ['find by metadata', 'POST', '/__admin/mappings/find-by-metadata', { matchesJsonPath: '$.tag' }],
  ['find requests', 'POST', '/__admin/requests/find', { method: 'GET' }],
  ['get an unknown request', 'GET', `/__admin/requests/${UNKNOWN}`],
  ['near misses for a request', 'POST', '/__admin/near-misses/request', { url: '/pp', method: 'GET' }],
  ['near misses for a request whose absoluteUrl is not a URL', 'POST', '/__admin/near-misses/request', { absoluteUrl: 'not a url' }],
  ['near misses for a request whose body is an object', 'POST', '/__admin/near-misses/request', { url: '/pp', body: { a: 1 } }],
  ['near misses for a request that is an array', 'POST', '/__admin/near-misses/request', ['/pp']],
  ['near misses for a pattern', 'POST', '/__admin/near-misses/request-pattern', { urlPath: '/pp' }],
  ['snapshot', 'POST', '/__admin/recordings/snapshot', { persist: false }],
  ['start recording without a target', 'POST', '/__admin/recordings/start', {}],
  ['status while recording', 'GET', '/__admin/recordings/status'],
  ['stop that recording', 'POST', '/__admin/recordings/stop'],
  ['list files', 'GET', '/__admin/files'],
  ['save mappings', 'POST', '/__admin/mappings/save'],
  ['remove by metadata', 'POST', '/__admin/mappings/remove-by-metadata', { matchesJsonPath: '$.tag' }],
  ['clear the journal', 'DELETE', '/__admin/requests'],
  ['remove by a body id that is not a UUID', 'POST', '/__admin/mappings/remove', { id: 'not-a-uuid' }],
  ['delete the stub', 'DELETE', `/__admin/mappings/${ID}`],
  ['reset mappings to disk', 'POST', '/__admin/mappings/reset'],
  ['delete all stubs', 'DELETE', '/__admin/mappings'],
  ['reset all', 'POST', '/__admin/reset'],
  ['health', 'GET', '/__admin/health'],
  ['version', 'GET', '/__admin/version'],
];

describeIfWireMock('parity with WireMock 3 on the admin API', () => {
  let wiremock: ChildProcess;
  let wiremockUrl: string;
  let root: string;
  let engine: TestEngine;

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'wiremock-parity-'));
    const port = await freePort();
    wiremockUrl = `http://127.0.0.1:${port}`;
    wiremock = spawn('java', ['-jar', path.join(jarDir, jar!), '--port', String(port), '--bind-address', '127.0.0.1', '--root-dir', root, '--disable-banner'], { stdio: 'ignore' });
    engine = await startTestEngine();
    const deadline = Date.now() + 45000;
    for (;;) {
      try {
        if ((await call(wiremockUrl, 'GET', '/__admin/health')).status === 200) break;
      } catch {
        if (Date.now() > deadline) throw new Error('WireMock did not start within 45 s');
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 60000);

  afterAll(async () => {
    wiremock?.kill('SIGTERM');
    await engine?.stop({ removeRoot: true });
    rmSync(root, { recursive: true, force: true });
  });

  it('answers every probe with the same status and error code as WireMock', async () => {
    const differences: string[] = [];
    for (const [name, method, p, body] of PROBES) {
      const headers = { 'content-type': 'application/json' };
      const theirs = await call(wiremockUrl, method, p, body, headers);
      const ours = await call(engine.url, method, p, body, headers);
      const codeOf = (r: typeof ours) => {
        try {
          return r.json().errors?.[0]?.code;
        } catch {
          return undefined;
        }
      };
      // Deliberate difference: where WireMock answers 404 with an empty body, the engine says what was not found.
      const theirCode = codeOf(theirs);
      if (theirs.status !== ours.status || (theirCode !== undefined && theirCode !== codeOf(ours))) {
        differences.push(`${name}: WireMock ${theirs.status}/${theirCode}, engine ${ours.status}/${codeOf(ours)}`);
      }
    }
    expect(differences).toEqual([]);
  }, 30000);

  it('serves the same stubs with the same status, body and stub headers as WireMock', async () => {
    const stubs = [
      { id: '00000000-0000-4000-8000-0000000000b1', name: 'plain', request: { method: 'GET', urlPath: '/s/plain' }, response: { status: 203, body: 'plain', headers: { 'X-A': 'a' } } },
      { request: { method: 'GET', urlPathPattern: '/s/re/[0-9]+' }, response: { status: 200, body: 'regex' } },
      { request: { method: 'POST', urlPath: '/s/json', bodyPatterns: [{ equalToJson: { a: 1 }, ignoreExtraElements: true }] }, response: { status: 201, jsonBody: { ok: true } } },
      { request: { method: 'GET', urlPathTemplate: '/s/users/{id}' }, response: { status: 200, body: 'user {{request.path.id}} {{request.query.q}}', transformers: ['response-template'] } },
      { request: { method: 'GET', urlPath: '/s/broken' }, response: { status: 200, body: '{{#each}}', transformers: ['response-template'] } },
      { request: { method: 'GET', urlPath: '/s/nofile' }, response: { status: 200, bodyFileName: 'missing.json' } },
      { request: { method: 'GET', urlPath: '/s/low' }, response: { status: 200, body: 'low' }, priority: 9 },
      { request: { method: 'GET', urlPath: '/s/low' }, response: { status: 200, body: 'high' }, priority: 2 },
      { request: { method: 'GET', url: '/s/q?x=1' }, response: { body: 'query' } },
      { request: { method: 'GET', urlPath: '/s/enc/a%20b' }, response: { body: 'encoded' } },
      { request: { method: 'GET', urlPath: '/s/space/a b' }, response: { body: 'space' } },
      { request: { method: 'GET', urlPath: '/s/plus', queryParameters: { q: { equalTo: 'a b' } } }, response: { body: 'plus' } },
      { scenarioName: 'flow', requiredScenarioState: 'Started', newScenarioState: 'second', request: { urlPath: '/s/flow' }, response: { body: 'first' } },
      { scenarioName: 'flow', requiredScenarioState: 'second', request: { urlPath: '/s/flow' }, response: { body: 'second' } },
    ];
    for (const base of [wiremockUrl, engine.url]) {
      await call(base, 'POST', '/__admin/reset');
      for (const stub of stubs) expect((await call(base, 'POST', '/__admin/mappings', stub)).status).toBe(201);
    }
    const requests: [string, string, unknown?][] = [
      ['GET', '/s/plain'],
      ['GET', '/s/re/123'],
      ['GET', '/s/re/abc'],
      ['POST', '/s/json', { a: 1, b: 2 }],
      ['POST', '/s/json', { a: 2 }],
      ['GET', '/s/users/7?q=x'],
      ['GET', '/s/broken'],
      ['GET', '/s/nofile'],
      ['GET', '/s/low'],
      ['GET', '/s/q?x=1'],
      ['GET', '/s/q?x=2'],
      ['GET', '/s/enc/a%20b'],
      ['GET', '/s/space/a%20b'],
      ['GET', '/s/plus?q=a+b'],
      ['GET', '/s/plus?q=a%20b'],
      ['HEAD', '/s/plain'],
      ['DELETE', '/s/plain'],
      ['GET', '/s/flow'],
      ['GET', '/s/flow'],
      ['GET', '/s/flow'],
    ];
    const differences: string[] = [];
    for (const [method, p, body] of requests) {
      const theirs = await call(wiremockUrl, method, p, body);
      const ours = await call(engine.url, method, p, body);
      const sameBody = theirs.status >= 400 || theirs.text === ours.text;
      if (theirs.status !== ours.status || !sameBody) differences.push(`${method} ${p}: WireMock ${theirs.status} ${theirs.text.slice(0, 40)}, engine ${ours.status} ${ours.text.slice(0, 40)}`);
      if (theirs.status < 400 && theirs.headers['matched-stub-id'] === undefined !== (ours.headers['matched-stub-id'] === undefined)) differences.push(`${method} ${p}: Matched-Stub-Id presence differs`);
    }
    expect(differences).toEqual([]);
  }, 30000);

  it('records the same traffic into the same request patterns, names and scenarios as WireMock', async () => {
    const upstream = await startUpstream((req, body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: req.url, body: body.toString() }));
    });
    try {
      const recorded: Record<string, any[]> = {};
      for (const [who, base] of [['wiremock', wiremockUrl], ['engine', engine.url]] as const) {
        await call(base, 'POST', '/__admin/reset');
        expect((await call(base, 'POST', '/__admin/recordings/start', { targetBaseUrl: upstream.url, persist: false })).status).toBe(200);
        await call(base, 'GET', '/rec/items?page=2&tag=a&tag=b');
        await call(base, 'GET', '/rec/items/1');
        await call(base, 'GET', '/rec/items/1');
        await call(base, 'POST', '/rec/items', { name: 'n' });
        await call(base, 'PUT', '/rec/text', 'plain', { 'content-type': 'text/plain' });
        recorded[who] = (await call(base, 'POST', '/__admin/recordings/stop')).json().mappings;
      }
      const shape = (m: any) => JSON.stringify({ name: m.name, request: m.request, scenario: m.scenarioName ?? null, required: m.requiredScenarioState ?? null, next: m.newScenarioState ?? null, body: m.response.body });
      expect(recorded.engine.map(shape).sort()).toEqual(recorded.wiremock.map(shape).sort());
    } finally {
      await upstream.close();
    }
  }, 30000);
});
