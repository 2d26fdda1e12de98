import { call, startTestEngine, type TestEngine } from './engine-harness';

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.stop({ removeRoot: true }));
beforeEach(() => call(engine.url, 'POST', '/__admin/reset'));

const stub = (path: string, extra: Record<string, unknown> = {}) => ({ request: { method: 'GET', urlPath: path }, response: { status: 200, body: path }, ...extra });

describe('/__admin/mappings', () => {
  it('creates a stub with 201 and serves it', async () => {
    const created = await call(engine.url, 'POST', '/__admin/mappings', stub('/hello'));
    expect(created.status).toBe(201);
    expect(created.json()).toMatchObject({ id: expect.any(String), uuid: created.json().id, request: { urlPath: '/hello' } });
    const served = await call(engine.url, 'GET', '/hello');
    expect(served.status).toBe(200);
    expect(served.text).toBe('/hello');
  });

  it('lists stubs with limit and offset and the total in meta', async () => {
    for (const p of ['/a', '/b', '/c']) await call(engine.url, 'POST', '/__admin/mappings', stub(p));
    const page = await call(engine.url, 'GET', '/__admin/mappings?limit=2&offset=1');
    expect(page.status).toBe(200);
    expect(page.json().meta).toEqual({ total: 3 });
    // newest first at equal priority: /c, /b, /a
    expect(page.json().mappings.map((m: any) => m.request.urlPath)).toEqual(['/b', '/a']);
  });

  it('gets, replaces and deletes one stub by id, and answers 404 for unknown ids', async () => {
    const id = (await call(engine.url, 'POST', '/__admin/mappings', stub('/one'))).json().id;
    expect((await call(engine.url, 'GET', `/__admin/mappings/${id}`)).json().request.urlPath).toBe('/one');
    const updated = await call(engine.url, 'PUT', `/__admin/mappings/${id}`, stub('/two'));
    expect(updated.status).toBe(200);
    expect(updated.json()).toMatchObject({ id, request: { urlPath: '/two' } });
    expect((await call(engine.url, 'GET', '/two')).status).toBe(200);
    expect((await call(engine.url, 'DELETE', `/__admin/mappings/${id}`)).status).toBe(200);
    const missing = await call(engine.url, 'GET', `/__admin/mappings/${id}`);
    expect(missing.status).toBe(404);
    expect(missing.json().errors[0].title).toContain(id);
    expect((await call(engine.url, 'PUT', `/__admin/mappings/${id}`, stub('/x'))).status).toBe(404);
    expect((await call(engine.url, 'DELETE', `/__admin/mappings/${id}`)).status).toBe(404);
  });

  it('finds a stub by its id in upper case, as WireMock parses ids as UUIDs in any case', async () => {
    const id = (await call(engine.url, 'POST', '/__admin/mappings', stub('/upper'))).json().id as string;
    expect(id).toBe(id.toLowerCase());
    const upper = id.toUpperCase();
    const got = await call(engine.url, 'GET', `/__admin/mappings/${upper}`);
    expect(got.status).toBe(200);
    expect(got.json()).toMatchObject({ id, request: { urlPath: '/upper' } });
    const updated = await call(engine.url, 'PUT', `/__admin/mappings/${upper}`, stub('/upper2'));
    expect(updated.status).toBe(200);
    // the stored id stays lower case: no second stub under the upper-case spelling
    expect(updated.json()).toMatchObject({ id, uuid: id, request: { urlPath: '/upper2' } });
    expect((await call(engine.url, 'GET', '/__admin/mappings')).json().meta.total).toBe(1);
    expect((await call(engine.url, 'DELETE', `/__admin/mappings/${upper}`)).status).toBe(200);
    expect((await call(engine.url, 'GET', `/__admin/mappings/${id}`)).status).toBe(404);
  });

  it('finds the stub of a deprecated edit or remove body by its id in upper case, and refuses a body id that is not a UUID with 422', async () => {
    const id = (await call(engine.url, 'POST', '/__admin/mappings', stub('/old'))).json().id as string;
    const edited = await call(engine.url, 'POST', '/__admin/mappings/edit', { id: id.toUpperCase(), ...stub('/edited') });
    expect(edited.status).toBe(200);
    expect(edited.json()).toMatchObject({ id, request: { urlPath: '/edited' } });
    expect((await call(engine.url, 'POST', '/__admin/mappings/remove', { uuid: id.toUpperCase() })).status).toBe(200);
    expect((await call(engine.url, 'GET', '/__admin/mappings')).json().meta.total).toBe(0);
    const bad = await call(engine.url, 'POST', '/__admin/mappings/remove', { id: 'not-a-uuid' });
    expect(bad.status).toBe(422);
    expect(bad.json().errors[0]).toMatchObject({ code: 10, source: { pointer: '/id' } });
  });

  it('answers an id that is not a UUID with 400, as WireMock does, and remove-by-metadata with {}', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await call(engine.url, method, '/__admin/mappings/not-a-uuid', method === 'PUT' ? stub('/x') : undefined);
      expect(res.status).toBe(400);
      expect(res.json()).toEqual({ errors: [{ code: 10, title: 'not-a-uuid is not a valid UUID' }] });
    }
    const removed = await call(engine.url, 'POST', '/__admin/mappings/remove-by-metadata', { matchesJsonPath: '$.nothing' });
    expect(removed.status).toBe(200);
    expect(removed.json()).toEqual({});
  });

  it.each([
    ['a body that is not JSON', '{"request": '],
    ['an unknown field at the top level', { ...stub('/bad'), requestt: {} }],
    ['a regex that does not compile', { request: { urlPathPattern: '/(unclosed' }, response: { status: 200 } }],
    ['two URL matchers', { request: { url: '/a', urlPath: '/a' }, response: { status: 200 } }],
  ])('rejects %s with 422 and WireMock errors, changing nothing', async (_name, body) => {
    await call(engine.url, 'POST', '/__admin/mappings', stub('/kept'));
    const res = await call(engine.url, 'POST', '/__admin/mappings', body, { 'content-type': 'application/json' });
    expect(res.status).toBe(422);
    expect(res.json().errors[0]).toMatchObject({ code: 10, title: 'Error parsing JSON', detail: expect.any(String), source: { pointer: expect.any(String) } });
    expect(res.json().errors[0].detail).not.toBe('');
    const list = (await call(engine.url, 'GET', '/__admin/mappings')).json();
    expect(list.mappings.map((m: any) => m.request.urlPath)).toEqual(['/kept']);
  });

  it('rejects an invalid replacement without touching the stored stub', async () => {
    const id = (await call(engine.url, 'POST', '/__admin/mappings', stub('/stay'))).json().id;
    const res = await call(engine.url, 'PUT', `/__admin/mappings/${id}`, { request: { urlPathPattern: '[' }, response: {} });
    expect(res.status).toBe(422);
    expect((await call(engine.url, 'GET', '/stay')).status).toBe(200);
  });

  it('refuses a second stub with a taken id (422, code 109) and keeps the first', async () => {
    const id = '00000000-0000-4000-8000-0000000000dd';
    await call(engine.url, 'POST', '/__admin/mappings', { id, ...stub('/first') });
    const res = await call(engine.url, 'POST', '/__admin/mappings', { id, ...stub('/second') });
    expect(res.status).toBe(422);
    expect(res.json().errors[0]).toMatchObject({ code: 109, title: 'Duplicate stub mapping ID' });
    expect((await call(engine.url, 'GET', `/__admin/mappings/${id}`)).json().request.urlPath).toBe('/first');
  });

  it('deletes every stub', async () => {
    await call(engine.url, 'POST', '/__admin/mappings', stub('/a'));
    expect((await call(engine.url, 'DELETE', '/__admin/mappings')).status).toBe(200);
    expect((await call(engine.url, 'GET', '/__admin/mappings')).json().meta.total).toBe(0);
  });

  it('imports with duplicatePolicy IGNORE and OVERWRITE and deleteAllNotInImport', async () => {
    const a = { id: '00000000-0000-4000-8000-00000000000a', ...stub('/a') };
    const b = { id: '00000000-0000-4000-8000-00000000000b', ...stub('/b') };
    await call(engine.url, 'POST', '/__admin/mappings', a);
    const changedA = { ...a, response: { status: 201, body: 'changed' } };
    await call(engine.url, 'POST', '/__admin/mappings/import', { mappings: [changedA, b], importOptions: { duplicatePolicy: 'IGNORE' } });
    expect((await call(engine.url, 'GET', '/a')).status).toBe(200);
    await call(engine.url, 'POST', '/__admin/mappings/import', { mappings: [changedA], importOptions: { duplicatePolicy: 'OVERWRITE' } });
    expect((await call(engine.url, 'GET', '/a')).status).toBe(201);
    expect((await call(engine.url, 'GET', '/__admin/mappings')).json().meta.total).toBe(2);
    await call(engine.url, 'POST', '/__admin/mappings/import', { mappings: [b], importOptions: { deleteAllNotInImport: true } });
    const ids = (await call(engine.url, 'GET', '/__admin/mappings')).json().mappings.map((m: any) => m.id);
    expect(ids).toEqual([b.id]);
  });

  it('rejects an import where one stub is invalid and imports none of them', async () => {
    const res = await call(engine.url, 'POST', '/__admin/mappings/import', { mappings: [stub('/ok'), { request: { urlPattern: '(' }, response: {} }] });
    expect(res.status).toBe(422);
    expect(res.json().errors[0].source.pointer).toMatch(/^\/mappings\/1/);
    expect((await call(engine.url, 'GET', '/__admin/mappings')).json().meta.total).toBe(0);
  });

  it('finds and removes stubs by metadata', async () => {
    await call(engine.url, 'POST', '/__admin/mappings', stub('/t1', { metadata: { tag: 'x' } }));
    await call(engine.url, 'POST', '/__admin/mappings', stub('/t2', { metadata: { tag: 'y' } }));
    await call(engine.url, 'POST', '/__admin/mappings', stub('/t3'));
    const pattern = { matchesJsonPath: { expression: '$.tag', equalTo: 'x' } };
    const found = await call(engine.url, 'POST', '/__admin/mappings/find-by-metadata', pattern);
    expect(found.json().mappings.map((m: any) => m.request.urlPath)).toEqual(['/t1']);
    await call(engine.url, 'POST', '/__admin/mappings/remove-by-metadata', pattern);
    const left = (await call(engine.url, 'GET', '/__admin/mappings')).json().mappings.map((m: any) => m.request.urlPath);
    expect(left.sort()).toEqual(['/t2', '/t3']);
  });
});

describe('deprecated WireMock 2 paths', () => {
  it('creates with /mappings/new, edits with /mappings/edit and removes with /mappings/remove', async () => {
    const created = await call(engine.url, 'POST', '/__admin/mappings/new', stub('/old'));
    expect(created.status).toBe(201);
    const id = created.json().id;
    expect((await call(engine.url, 'POST', '/__admin/mappings/edit', { id, ...stub('/edited') })).status).toBe(200);
    expect((await call(engine.url, 'GET', '/edited')).status).toBe(200);
    expect((await call(engine.url, 'POST', '/__admin/mappings/remove', { id })).status).toBe(200);
    expect((await call(engine.url, 'GET', '/__admin/mappings')).json().meta.total).toBe(0);
    await call(engine.url, 'POST', '/__admin/mappings', stub('/by-request'));
    expect((await call(engine.url, 'POST', '/__admin/mappings/remove', stub('/by-request'))).status).toBe(200);
    expect((await call(engine.url, 'GET', '/__admin/mappings')).json().meta.total).toBe(0);
    // as WireMock: removing what is not there succeeds
    expect((await call(engine.url, 'POST', '/__admin/mappings/remove', { request: { urlPath: '/none' } })).status).toBe(200);
    expect((await call(engine.url, 'POST', '/__admin/mappings/remove', { id: '00000000-0000-0000-0000-000000000000' })).status).toBe(200);
  });
});

describe('stub selection', () => {
  it('prefers the lower priority number, then the newest stub', async () => {
    await call(engine.url, 'POST', '/__admin/mappings', { request: { urlPath: '/p' }, response: { body: 'old-default' } });
    await call(engine.url, 'POST', '/__admin/mappings', { request: { urlPath: '/p' }, response: { body: 'new-default' } });
    expect((await call(engine.url, 'GET', '/p')).text).toBe('new-default');
    await call(engine.url, 'POST', '/__admin/mappings', { request: { urlPathPattern: '/.*' }, response: { body: 'high' }, priority: 1 });
    expect((await call(engine.url, 'GET', '/p')).text).toBe('high');
  });

  it('gates stubs by scenario state and advances it, and exposes scenarios', async () => {
    const base = { scenarioName: 'cart', request: { method: 'GET', urlPath: '/cart' } };
    await call(engine.url, 'POST', '/__admin/mappings', { ...base, requiredScenarioState: 'Started', newScenarioState: 'filled', response: { body: 'empty' } });
    await call(engine.url, 'POST', '/__admin/mappings', { ...base, requiredScenarioState: 'filled', response: { body: 'one item' } });
    expect((await call(engine.url, 'GET', '/cart')).text).toBe('empty');
    expect((await call(engine.url, 'GET', '/cart')).text).toBe('one item');
    const scenarios = (await call(engine.url, 'GET', '/__admin/scenarios')).json().scenarios;
    expect(scenarios).toEqual([expect.objectContaining({ name: 'cart', state: 'filled', possibleStates: expect.arrayContaining(['Started', 'filled']) })]);
    await call(engine.url, 'POST', '/__admin/scenarios/reset');
    expect((await call(engine.url, 'GET', '/cart')).text).toBe('empty');
    expect((await call(engine.url, 'PUT', '/__admin/scenarios/cart/state', { state: 'Started' })).status).toBe(200);
    expect((await call(engine.url, 'GET', '/cart')).text).toBe('empty');
    const badState = await call(engine.url, 'PUT', '/__admin/scenarios/cart/state', { state: 'nope' });
    expect(badState.status).toBe(422);
    expect(badState.json().errors[0]).toMatchObject({ code: 11, title: 'Scenario cart does not support state nope' });
    expect((await call(engine.url, 'PUT', '/__admin/scenarios/unknown/state', { state: 'x' })).status).toBe(404);
  });
});
