import { call, createTestBackends, eventually, startHub, type RunningHub } from './support/start-hub';
import { startWireMock, wireMockUnavailableReason, type WireMockServer } from './support/wiremock';

jest.setTimeout(60000);
const skipReason = wireMockUnavailableReason();
const describeWithEngines = skipReason ? describe.skip : describe;
if (skipReason) process.stderr.write(`\n[hub-api] SKIPPED registry tests with genuine WireMock: ${skipReason}\n`);

describeWithEngines(`hub registry and active engine (genuine WireMock${skipReason ? `; SKIPPED: ${skipReason}` : ''})`, () => {
  let backends: Awaited<ReturnType<typeof createTestBackends>>;
  let engine: WireMockServer;
  let hub: RunningHub;
  /**
   * An engine that never answers: port 1 (tcpmux), on which nothing listens. A port from freePort() is free only
   * when asked: the other suites running meanwhile bind ports too, and one of them once answered this "dead"
   * engine's probe with a 404.
   */
  const deadUrl = 'http://127.0.0.1:1';

  beforeAll(async () => {
    [backends, engine] = await Promise.all([createTestBackends(), startWireMock()]);
    hub = await startHub({ ...backends, env: { LOCAL_ENGINE_URL: engine.url, HUB_HEALTH_OFFLINE_AFTER_MS: '1500' } });
  });
  /** Engines a test started that live until the suite ends. */
  const afterAllRemove: WireMockServer[] = [];
  afterAll(async () => {
    await hub?.stop();
    for (const started of afterAllRemove) await started.remove();
    await engine?.remove();
    await backends?.cleanup();
  });

  it('lists the local engine, with its URL, as active before anything is registered', async () => {
    const res = await call(hub.url, 'GET', '/hub/admin/registry/servers');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body[0]).toMatchObject({ id: 'local', url: engine.url, local: true, active: true });
  });

  it('registers a server with a UUID and lists it with health, last seen, stub count and active flag', async () => {
    const res = await call(hub.url, 'POST', '/hub/admin/registry/servers', { body: { name: 'dead one', url: deadUrl } });
    expect(res.status).toBe(201);
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body).toMatchObject({ name: 'dead one', url: deadUrl, active: false, local: false, health: 'UNKNOWN', lastSeenAt: null, stubCount: null });
    const list = await call(hub.url, 'GET', '/hub/admin/registry/servers');
    expect(list.body.map((s: { id: string }) => s.id)).toEqual(['local', res.body.id]);
  });

  it('returns the existing entry with 200 when the same URL is registered again (trailing slash and case ignored), as a heartbeat', async () => {
    const first = await call(hub.url, 'POST', '/hub/admin/registry/servers', { body: { name: 'eng', url: `${engine.url}/x` } });
    const again = await call(hub.url, 'POST', '/hub/admin/registry/servers', { body: { name: 'other name', url: `${engine.url.replace('http', 'HTTP')}/x/` } });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, name: 'eng' });
    // a repeat registration is the engine's heartbeat: it counts as seen
    expect(first.body.lastSeenAt).toBeNull();
    expect(Date.parse(again.body.lastSeenAt)).toBeGreaterThan(Date.now() - 60000);
    await call(hub.url, 'DELETE', `/hub/admin/registry/servers/${first.body.id}`);
  });

  it.each([
    ['a missing name', { url: 'http://127.0.0.1:1' }, 'body.name'],
    ['a blank name', { name: '  ', url: 'http://127.0.0.1:1' }, 'body.name'],
    ['a relative URL', { name: 'x', url: '/engine' }, 'body.url'],
    ['a non-http URL', { name: 'x', url: 'ftp://127.0.0.1/' }, 'body.url'],
    ['a missing URL', { name: 'x' }, 'body.url'],
  ])('answers 400 problem for %s', async (_what, body, path) => {
    const res = await call(hub.url, 'POST', '/hub/admin/registry/servers', { body });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it('renames a server, changes its URL, refuses a URL registered elsewhere, then removes it', async () => {
    const a = (await call(hub.url, 'POST', '/hub/admin/registry/servers', { body: { name: 'a', url: 'http://127.0.0.1:1/a' } })).body;
    const b = (await call(hub.url, 'POST', '/hub/admin/registry/servers', { body: { name: 'b', url: 'http://127.0.0.1:1/b' } })).body;
    const renamed = await call(hub.url, 'PATCH', `/hub/admin/registry/servers/${a.id}`, { body: { name: 'a2' } });
    expect(renamed.body).toMatchObject({ id: a.id, name: 'a2', url: 'http://127.0.0.1:1/a' });
    const moved = await call(hub.url, 'PUT', `/hub/admin/registry/servers/${a.id}`, { body: { url: 'http://127.0.0.1:1/a-moved/' } });
    expect(moved.body).toMatchObject({ name: 'a2', url: 'http://127.0.0.1:1/a-moved' });
    const clash = await call(hub.url, 'PUT', `/hub/admin/registry/servers/${a.id}`, { body: { url: b.url } });
    expect(clash.status).toBe(409);
    expect((await call(hub.url, 'PUT', `/hub/admin/registry/servers/${a.id}`, { body: {} })).status).toBe(400);
    expect((await call(hub.url, 'DELETE', `/hub/admin/registry/servers/${a.id}`)).status).toBe(204);
    expect((await call(hub.url, 'GET', `/hub/admin/registry/servers/${a.id}`)).status).toBe(404);
    expect((await call(hub.url, 'DELETE', `/hub/admin/registry/servers/${a.id}`)).status).toBe(404);
    expect((await call(hub.url, 'DELETE', '/hub/admin/registry/servers/local')).status).toBe(400);
    expect((await call(hub.url, 'DELETE', '/hub/admin/registry/servers/not-an-id')).status).toBe(400);
    await call(hub.url, 'DELETE', `/hub/admin/registry/servers/${b.id}`);
  });

  it('answers 409, never 500, when two servers are moved to the same URL at once', async () => {
    for (let round = 0; round < 10; round++) {
      const [a, b] = await Promise.all(['a', 'b'].map(async (name) => (await call(hub.url, 'POST', '/hub/admin/registry/servers', { body: { name, url: `http://127.0.0.1:1/race-${round}-${name}` } })).body));
      const target = { url: `http://127.0.0.1:1/race-${round}` };
      const answers = await Promise.all([a, b].map((s) => call(hub.url, 'PUT', `/hub/admin/registry/servers/${s.id}`, { body: target })));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(answers.find((r) => r.status === 409)?.body.detail).toContain(`${target.url} is already registered`);
      await Promise.all([a, b].map((s) => call(hub.url, 'DELETE', `/hub/admin/registry/servers/${s.id}`)));
    }
  });

  it('makes a server active, tells which is active, and keeps it when an unknown or malformed id is given', async () => {
    const s = (await call(hub.url, 'POST', '/hub/admin/registry/servers', { body: { name: 'act', url: `${engine.url}/act` } })).body;
    const set = await call(hub.url, 'POST', '/hub/admin/registry/active', { body: { id: s.id } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ id: s.id, active: true, url: `${engine.url}/act` });
    expect((await call(hub.url, 'GET', '/hub/admin/registry/active')).body.id).toBe(s.id);

    const unknown = await call(hub.url, 'POST', '/hub/admin/registry/active', { body: { id: '00000000-0000-4000-8000-000000000000' } });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');
    expect((await call(hub.url, 'POST', '/hub/admin/registry/active', { body: { id: 'nope' } })).status).toBe(400);
    expect((await call(hub.url, 'POST', '/hub/admin/registry/active', { body: {} })).status).toBe(400);
    expect((await call(hub.url, 'GET', '/hub/admin/registry/active')).body.id).toBe(s.id);

    const local = await call(hub.url, 'POST', '/hub/admin/registry/active', { body: { id: 'local' } });
    expect(local.body).toMatchObject({ id: 'local', active: true });
    await call(hub.url, 'DELETE', `/hub/admin/registry/servers/${s.id}`);
  });

  it('makes local active again when the active server is removed', async () => {
    const s = (await call(hub.url, 'POST', '/hub/admin/registry/servers', { body: { name: 'gone', url: `${engine.url}/gone` } })).body;
    await call(hub.url, 'POST', '/hub/admin/registry/active', { body: { id: s.id } });
    await call(hub.url, 'DELETE', `/hub/admin/registry/servers/${s.id}`);
    expect((await call(hub.url, 'GET', '/hub/admin/registry/active')).body).toMatchObject({ id: 'local', active: true });
  });

  it('answers 404 for an unknown target server and 400 for a malformed one, never falling back to the active engine', async () => {
    const unknown = await call(hub.url, 'GET', '/hub/admin/mappings', { headers: { 'X-Hub-Target-Server': '11111111-1111-4111-8111-111111111111' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toContain('11111111-1111-4111-8111-111111111111');
    for (const bad of ['remote-1', '1234', 'local; drop']) {
      const res = await call(hub.url, 'GET', '/hub/admin/mappings', { headers: { 'X-Hub-Target-Server': bad } });
      expect(res.status).toBe(400);
    }
    expect((await call(hub.url, 'GET', '/hub/admin/mappings', { headers: { 'X-Hub-Target-Server': 'local' } })).status).toBe(200);
  });

  it('keeps the registry and the active choice across a restart of the hub', async () => {
    const s = (await call(hub.url, 'POST', '/hub/admin/registry/servers', { body: { name: 'persisted', url: `${engine.url}/persisted` } })).body;
    await call(hub.url, 'POST', '/hub/admin/registry/active', { body: { id: s.id } });
    await hub.stop();
    hub = await startHub({ ...backends, env: { LOCAL_ENGINE_URL: engine.url, HUB_HEALTH_OFFLINE_AFTER_MS: '1500' } });
    const list = (await call(hub.url, 'GET', '/hub/admin/registry/servers')).body;
    expect(list.find((x: { id: string }) => x.id === s.id)).toMatchObject({ name: 'persisted', active: true });
    expect((await call(hub.url, 'GET', '/hub/admin/registry/active')).body.id).toBe(s.id);
    await call(hub.url, 'POST', '/hub/admin/registry/active', { body: { id: 'local' } });
    await call(hub.url, 'DELETE', `/hub/admin/registry/servers/${s.id}`);
  });

  it('refuses the local engine registered under another loopback name (it is one engine)', async () => {
    const again = await call(hub.url, 'POST', '/hub/admin/registry/servers', { body: { name: 'local again', url: `${engine.url.replace('127.0.0.1', 'localhost')}/` } });
    expect(again.status).toBe(409);
    expect(again.body.detail).toContain('is the local engine');
  });

  it('probes every engine from a repeatable job: live ones UP with stub count, never-seen ones OFFLINE, all still listed', async () => {
    await call(engine.url, 'POST', '/__admin/mappings', { body: { request: { method: 'GET', urlPath: '/probe' }, response: { status: 200 } } });
    const second = await startWireMock();
    afterAllRemove.push(second);
    await call(second.url, 'POST', '/__admin/mappings', { body: { request: { method: 'GET', urlPath: '/probe' }, response: { status: 200 } } });
    const live = (await call(hub.url, 'POST', '/hub/admin/registry/servers', { body: { name: 'live', url: `${second.url.replace('127.0.0.1', 'localhost')}/` } })).body;
    await hub.stop();
    hub = await startHub({ ...backends, env: { LOCAL_ENGINE_URL: engine.url, HUB_HEALTH_OFFLINE_AFTER_MS: '1500', HUB_HEALTH_PROBE_INTERVAL_MS: '250' } });
    const probed = await eventually(
      async () => (await call(hub.url, 'GET', '/hub/admin/registry/servers')).body,
      (list) => byName(list, 'live')?.health === 'UP' && byName(list, 'dead one')?.health === 'OFFLINE' && list[0].health === 'UP',
    );
    expect(byName(probed, 'live')).toMatchObject({ id: live.id, health: 'UP', stubCount: 1 });
    expect(byName(probed, 'live').lastSeenAt).not.toBeNull();
    expect(probed[0]).toMatchObject({ id: 'local', health: 'UP', stubCount: 1 });
    expect(byName(probed, 'dead one')).toMatchObject({ lastSeenAt: null, stubCount: null });
    expect(byName(probed, 'dead one').lastError).toEqual(expect.stringContaining('ECONNREFUSED'));
  });

  it('marks an engine that stops answering DOWN, then OFFLINE after offline-after-ms, without deleting it, and UP when it returns', async () => {
    const flaky = await startWireMock();
    try {
      const s = (await call(hub.url, 'POST', '/hub/admin/registry/servers', { body: { name: 'flaky', url: flaky.url } })).body;
      const seen = await eventually(async () => (await call(hub.url, 'GET', `/hub/admin/registry/servers/${s.id}`)).body, (x) => x.health === 'UP');
      await flaky.stop();
      const down = await eventually(async () => (await call(hub.url, 'GET', `/hub/admin/registry/servers/${s.id}`)).body, (x) => x.health !== 'UP');
      expect(down.health).toBe('DOWN');
      expect(down.lastSeenAt).not.toBeNull();
      const offline = await eventually(async () => (await call(hub.url, 'GET', `/hub/admin/registry/servers/${s.id}`)).body, (x) => x.health === 'OFFLINE');
      expect(offline.lastSeenAt >= seen.lastSeenAt).toBe(true);
      await flaky.restart();
      await eventually(async () => (await call(hub.url, 'GET', `/hub/admin/registry/servers/${s.id}`)).body, (x) => x.health === 'UP', 30000);
    } finally {
      await flaky.remove();
    }
  });
});

function byName(list: { name: string }[], name: string) {
  return list.find((s) => s.name === name) as Record<string, any>;
}
