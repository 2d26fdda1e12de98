import { freePort } from '@mockyard/testkit';
import { call, createTestBackends, eventually, startHub, type RunningHub } from './support/start-hub';
import { startWireMock, wireMockUnavailableReason, type WireMockServer } from './support/wiremock';

jest.setTimeout(45000);
const skipReason = wireMockUnavailableReason();
const describeWithEngines = skipReason ? describe.skip : describe;
if (skipReason) process.stderr.write(`\n[hub-api] SKIPPED fan-out tests with genuine WireMock: ${skipReason}\n`);

const stub = (path: string) => ({ request: { method: 'GET', urlPath: path }, response: { status: 200, jsonBody: { path } } });

describeWithEngines(`fan-out of stubs to many engines through BullMQ (genuine WireMock${skipReason ? `; SKIPPED: ${skipReason}` : ''})`, () => {
  let backends: Awaited<ReturnType<typeof createTestBackends>>;
  let local: WireMockServer;
  let b: WireMockServer;
  let hub: RunningHub;
  let idB: string;
  let idDead: string;

  const paths = async (engine: WireMockServer) => ((await call(engine.url, 'GET', '/__admin/mappings')).body.mappings as { request: { urlPath?: string; urlPattern?: string } }[]).map((m) => m.request.urlPath ?? m.request.urlPattern).sort();
  const settled = (id: string) => eventually(() => call(hub.url, 'GET', `/hub/admin/fanout/${id}`), (r) => r.body.state !== 'running', 20000);

  beforeAll(async () => {
    [backends, local, b] = await Promise.all([createTestBackends(), startWireMock(), startWireMock()]);
    hub = await startHub({ ...backends, env: { LOCAL_ENGINE_URL: local.url, HUB_FANOUT_ATTEMPTS: '4', HUB_FANOUT_BACKOFF_MS: '300' } });
    idB = (await call(hub.url, 'POST', '/hub/admin/registry/servers', { body: { name: 'b', url: b.url } })).body.id;
    idDead = (await call(hub.url, 'POST', '/hub/admin/registry/servers', { body: { name: 'dead', url: `http://127.0.0.1:${await freePort()}` } })).body.id;
  });
  afterAll(async () => {
    await hub?.stop();
    await Promise.all([local?.remove(), b?.remove()]);
    await backends?.cleanup();
  });

  it('pushes stubs to each named engine as its own job and reports per-engine results, retrying a dead engine until it fails', async () => {
    const started = await call(hub.url, 'POST', '/hub/admin/fanout', { body: { serverIds: ['local', idB, idDead], mappings: [stub('/f1'), stub('/f2')] } });
    expect(started.status).toBe(202);
    expect(started.headers.get('location')).toBe(`/hub/admin/fanout/${started.body.id}`);
    expect(started.body).toMatchObject({ mode: 'import', stubCount: 2, state: 'running' });
    expect(started.body.results.map((r: { engine: { id: string } }) => r.engine.id)).toEqual(['local', idB, idDead]);

    const done = await settled(started.body.id);
    expect(done.body.state).toBe('partial');
    const byId = Object.fromEntries(done.body.results.map((r: { engine: { id: string } }) => [r.engine.id, r]));
    expect(byId.local).toMatchObject({ serverId: 'local', name: 'local', state: 'completed', attempts: 1, result: { imported: 2, mode: 'import' }, error: null });
    expect(byId[idB]).toMatchObject({ state: 'completed', result: { imported: 2 } });
    expect(byId[idDead]).toMatchObject({ state: 'failed', attempts: 4 });
    expect(byId[idDead].error).toContain('unreachable');
    expect(await paths(local)).toEqual(['/f1', '/f2']);
    expect(await paths(b)).toEqual(['/f1', '/f2']);
  });

  it('gives every engine the same stub ids, so pushing again overwrites instead of duplicating', async () => {
    const ids = async (engine: WireMockServer) => ((await call(engine.url, 'GET', '/__admin/mappings')).body.mappings as { id: string }[]).map((m) => m.id).sort();
    expect(await ids(local)).toEqual(await ids(b));
    const withIds = (await call(local.url, 'GET', '/__admin/mappings')).body.mappings;
    const again = await call(hub.url, 'POST', '/hub/admin/fanout', { body: { serverIds: ['local', idB], mappings: withIds } });
    expect((await settled(again.body.id)).body.state).toBe('completed');
    expect(await paths(b)).toEqual(['/f1', '/f2']);
  });

  it('replaces the other stubs of every engine with mode replace, keeping each engine\'s proxy', async () => {
    await call(hub.url, 'POST', '/hub/admin/proxy/enable', { body: { targetUrl: local.url }, headers: { 'X-Hub-Target-Server': idB } });
    const started = await call(hub.url, 'POST', '/hub/admin/fanout', { body: { serverIds: ['local', idB], mode: 'replace', mappings: [stub('/only')] } });
    const done = await settled(started.body.id);
    expect(done.body.state).toBe('completed');
    expect(await paths(local)).toEqual(['/only']);
    expect(await paths(b)).toEqual(['.*', '/only']);
    expect((await call(hub.url, 'GET', '/hub/admin/proxy', { headers: { 'X-Hub-Target-Server': idB } })).body).toMatchObject({ enabled: true, targetUrl: local.url });
  });

  it('pushes to every engine with all: true', async () => {
    const started = await call(hub.url, 'POST', '/hub/admin/fanout', { body: { all: true, mappings: [stub('/everywhere')] } });
    expect(started.body.results.map((r: { engine: { id: string } }) => r.engine.id)).toEqual(['local', idB, idDead]);
    const done = await settled(started.body.id);
    expect(done.body.results.filter((r: { state: string }) => r.state === 'completed')).toHaveLength(2);
    expect(await paths(b)).toContain('/everywhere');
  });

  it('fails an engine\'s job at once, without retries, when the engine refuses the stubs', async () => {
    const started = await call(hub.url, 'POST', '/hub/admin/fanout', { body: { serverIds: [idB], mappings: [{ request: { method: 'GET', urlPathx: '/bad' }, response: { status: 200 } }] } });
    const done = await settled(started.body.id);
    expect(done.body.state).toBe('failed');
    expect(done.body.results[0]).toMatchObject({ state: 'failed', attempts: 1 });
    expect(done.body.results[0].error).toContain('urlPathx');
  });

  it('succeeds on a retry when an engine comes back within the attempts', async () => {
    await b.stop();
    const started = await call(hub.url, 'POST', '/hub/admin/fanout', { body: { serverIds: [idB], mappings: [stub('/after-restart')] } });
    await b.restart();
    const done = await settled(started.body.id);
    expect(done.body.results[0]).toMatchObject({ state: 'completed' });
    expect(done.body.results[0].attempts).toBeGreaterThan(1);
    expect(await paths(b)).toContain('/after-restart');
  });

  it.each([
    ['an unknown server id', { serverIds: ['00000000-0000-4000-8000-00000000abcd'], mappings: [] }, 404],
    ['a malformed server id', { serverIds: ['engine-b'], mappings: [] }, 400],
    ['neither serverIds nor all', { mappings: [] }, 400],
    ['both serverIds and all', { serverIds: ['local'], all: true, mappings: [] }, 400],
    ['no mappings', { serverIds: ['local'] }, 400],
    ['an unknown mode', { serverIds: ['local'], mappings: [], mode: 'merge' }, 400],
  ])('refuses %s before enqueuing anything', async (_what, body, status) => {
    const res = await call(hub.url, 'POST', '/hub/admin/fanout', { body });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });

  it('answers 404 for an unknown fan-out id', async () => {
    expect((await call(hub.url, 'GET', '/hub/admin/fanout/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('pushes once to an engine named twice in different spellings', async () => {
    const started = await call(hub.url, 'POST', '/hub/admin/fanout', { body: { serverIds: ['local', 'LOCAL', idB, idB.toUpperCase()], mappings: [stub('/once')] } });
    expect(started.status).toBe(202);
    expect(started.body.results.map((r: { engine: { id: string } }) => r.engine.id)).toEqual(['local', idB]);
    expect((await settled(started.body.id)).body.results.map((r: { state: string }) => r.state)).toEqual(['completed', 'completed']);
  });
});
