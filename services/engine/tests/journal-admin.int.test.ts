import { call, startTestEngine, type TestEngine } from './engine-harness';

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.stop({ removeRoot: true }));
beforeEach(() => call(engine.url, 'POST', '/__admin/reset'));

async function seed() {
  await call(engine.url, 'POST', '/__admin/mappings', { name: 'users', request: { method: 'GET', urlPath: '/users' }, response: { status: 200, body: 'users' } });
  await call(engine.url, 'GET', '/users?page=1', undefined, { 'x-trace': 'one' });
  await call(engine.url, 'POST', '/orders', 'hello', { 'content-type': 'text/plain' });
}

describe('/__admin/requests', () => {
  it('lists serve events newest first with a total and honours limit', async () => {
    await seed();
    const all = (await call(engine.url, 'GET', '/__admin/requests')).json();
    expect(all.meta.total).toBe(2);
    expect(all.requestJournalDisabled).toBe(false);
    expect(all.requests.map((e: any) => e.request.url)).toEqual(['/orders', '/users?page=1']);
    expect(all.requests[1]).toMatchObject({ wasMatched: true, stubMapping: { name: 'users' }, response: { status: 200, body: 'users' } });
    expect(all.requests[1].request).toMatchObject({ method: 'GET', headers: { 'x-trace': 'one' }, queryParams: { page: { values: ['1'] } } });
    expect(all.requests[0]).toMatchObject({ wasMatched: false, request: { method: 'POST', body: 'hello' }, response: { status: 404 } });
    const limited = (await call(engine.url, 'GET', '/__admin/requests?limit=1')).json();
    expect(limited.requests).toHaveLength(1);
  });

  it('answers a query over the parameter bound with 400 in WireMock\'s error shape', async () => {
    const res = await call(engine.url, 'GET', `/__admin/requests?${'&'.repeat(1000)}limit=1`);
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ errors: [{ code: 400, title: 'the query has more than 1000 parameters' }] });
  });

  it('filters by since', async () => {
    await seed();
    const future = new Date(Date.now() + 60000).toISOString();
    expect((await call(engine.url, 'GET', `/__admin/requests?since=${future}`)).json().requests).toHaveLength(0);
    expect((await call(engine.url, 'GET', '/__admin/requests?since=2000-01-01T00:00:00Z')).json().requests).toHaveLength(2);
    expect((await call(engine.url, 'GET', '/__admin/requests?since=yesterday')).status).toBe(400);
  });

  it('gets and deletes one event (GET 404 when unknown, DELETE 200), and clears the journal', async () => {
    await seed();
    const [first] = (await call(engine.url, 'GET', '/__admin/requests')).json().requests;
    expect((await call(engine.url, 'GET', `/__admin/requests/${first.id}`)).json().id).toBe(first.id);
    expect((await call(engine.url, 'GET', `/__admin/requests/${first.id.toUpperCase()}`)).json().id).toBe(first.id);
    expect((await call(engine.url, 'DELETE', `/__admin/requests/${first.id.toUpperCase()}`)).status).toBe(200);
    expect((await call(engine.url, 'GET', `/__admin/requests/${first.id}`)).status).toBe(404);
    // as WireMock: deleting what is no longer there succeeds
    const again = await call(engine.url, 'DELETE', `/__admin/requests/${first.id}`);
    expect(again.status).toBe(200);
    expect(again.json()).toEqual({});
    expect((await call(engine.url, 'DELETE', '/__admin/requests')).status).toBe(200);
    expect((await call(engine.url, 'GET', '/__admin/requests')).json().meta.total).toBe(0);
  });

  it('counts, finds and removes requests by request pattern', async () => {
    await seed();
    const pattern = { method: 'GET', urlPath: '/users', headers: { 'X-Trace': { equalTo: 'one' } } };
    expect((await call(engine.url, 'POST', '/__admin/requests/count', pattern)).json().count).toBe(1);
    expect((await call(engine.url, 'POST', '/__admin/requests/count', { method: 'DELETE' })).json().count).toBe(0);
    const found = (await call(engine.url, 'POST', '/__admin/requests/find', { urlPathPattern: '/.*' })).json().requests;
    expect(found.map((r: any) => r.url)).toEqual(['/users?page=1', '/orders']);
    expect((await call(engine.url, 'POST', '/__admin/requests/count', { urlPathPattern: '(' })).status).toBe(422);
    await call(engine.url, 'POST', '/__admin/requests/remove', { method: 'POST' });
    expect((await call(engine.url, 'GET', '/__admin/requests')).json().meta.total).toBe(1);
  });

  it('answers what remove removed newest first, as WireMock does (find and count stay oldest first)', async () => {
    await seed();
    const removed = (await call(engine.url, 'POST', '/__admin/requests/remove', { urlPathPattern: '/.*' })).json();
    expect(removed.serveEvents.map((e: any) => e.request.url)).toEqual(['/orders', '/users?page=1']);
  });

  it('answers a serve event id that is not a UUID with 400 (code 10), as WireMock does; an unknown one with 404', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await call(engine.url, method, '/__admin/requests/not-a-uuid');
      expect(res.status).toBe(400);
      expect(res.json()).toEqual({ errors: [{ code: 10, title: 'not-a-uuid is not a valid UUID' }] });
    }
    expect((await call(engine.url, 'GET', '/__admin/requests/00000000-0000-0000-0000-000000000000')).status).toBe(404);
    expect((await call(engine.url, 'DELETE', '/__admin/requests/00000000-0000-0000-0000-000000000000')).status).toBe(200);
  });

  it('removes the requests served by stubs whose metadata matches', async () => {
    await call(engine.url, 'POST', '/__admin/mappings', { request: { urlPath: '/tagged' }, response: {}, metadata: { team: 'a' } });
    await seed();
    await call(engine.url, 'GET', '/tagged');
    const removed = (await call(engine.url, 'POST', '/__admin/requests/remove-by-metadata', { matchesJsonPath: { expression: '$.team', equalTo: 'a' } })).json();
    expect(removed.serveEvents.map((e: any) => e.request.url)).toEqual(['/tagged']);
    expect((await call(engine.url, 'GET', '/__admin/requests')).json().meta.total).toBe(2);
  });

  it('lists unmatched requests (newest first, as WireMock) and their near misses with a distance', async () => {
    await seed();
    await call(engine.url, 'GET', '/userz');
    const unmatched = (await call(engine.url, 'GET', '/__admin/requests/unmatched')).json().requests;
    expect(unmatched.map((r: any) => r.url)).toEqual(['/userz', '/orders']);
    const nearMisses = (await call(engine.url, 'GET', '/__admin/requests/unmatched/near-misses')).json().nearMisses;
    expect([...new Set(nearMisses.map((n: any) => n.request.url))]).toEqual(['/userz', '/orders']);
    const forUserz = nearMisses.find((n: any) => n.request.url === '/userz');
    expect(forUserz).toMatchObject({ stubMapping: { name: 'users' }, matchResult: { distance: expect.any(Number) } });
    expect(forUserz.matchResult.distance).toBeGreaterThan(0);
    expect(forUserz.matchResult.distance).toBeLessThan(1);
  });

  it('answers near misses for a given request and for a given request pattern', async () => {
    await seed();
    const byRequest = (await call(engine.url, 'POST', '/__admin/near-misses/request', { url: '/user', method: 'GET' })).json().nearMisses;
    expect(byRequest[0]).toMatchObject({ stubMapping: { name: 'users' }, matchResult: { distance: expect.any(Number) } });
    expect(byRequest[0].matchResult.diffDescriptions).toEqual([expect.objectContaining({ actual: expect.stringContaining('/user'), errorMessage: expect.stringMatching(/does not match/) })]);
    const byPattern = (await call(engine.url, 'POST', '/__admin/near-misses/request-pattern', { method: 'POST', urlPath: '/order' })).json().nearMisses;
    expect(byPattern[0]).toMatchObject({ request: { url: '/orders' }, requestPattern: { urlPath: '/order' } });
    expect(byPattern[0].matchResult.distance).toBeLessThan(byPattern[1].matchResult.distance);
  });

  it('takes the request of a near-miss query by its absoluteUrl too', async () => {
    await seed();
    const res = await call(engine.url, 'POST', '/__admin/near-misses/request', { absoluteUrl: 'http://example.com:8080/user?x=1', method: 'GET' });
    expect(res.status).toBe(200);
    expect(res.json().nearMisses[0]).toMatchObject({ request: { url: '/user?x=1' }, stubMapping: { name: 'users' } });
  });

  it.each([
    ['an absoluteUrl that is not a URL', { absoluteUrl: 'not a url' }, '/absoluteUrl', /absoluteUrl must be an absolute URL/],
    ['a JSON body that is not a string', { url: '/x', body: { a: 1 } }, '/body', /body must be a string/],
    ['a bodyAsBase64 that is not a string', { url: '/x', bodyAsBase64: 12 }, '/bodyAsBase64', /bodyAsBase64/],
    ['a url that is not a string', { url: 5 }, '/url', /url must be a string/],
    ['a header value that is a number', { url: '/x', headers: { 'X-A': 1 } }, '/headers/X-A', /header value/],
    ['no url at all', { method: 'GET' }, '/url', /url is required/],
    ['a body that is not an object', ['/x'], '/', /JSON object/],
  ])('refuses a near-miss request with %s: 422 naming the field, as other malformed admin entities', async (_name, body, pointer, detail) => {
    const res = await call(engine.url, 'POST', '/__admin/near-misses/request', body);
    expect(res.status).toBe(422);
    expect(res.json().errors[0]).toMatchObject({ code: 10, title: 'Error parsing JSON', source: { pointer } });
    expect(res.json().errors[0].detail).toMatch(detail);
  });

  it('answers an unmatched request with 404 and a readable report naming the closest stub', async () => {
    await seed();
    const res = await call(engine.url, 'POST', '/users');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/Request was not matched/);
    expect(res.text).toContain('users');
  });
});

describe('a bounded and a disabled journal', () => {
  it('keeps only the newest max-entries events', async () => {
    const small = await startTestEngine({ journalMaxEntries: 2 });
    try {
      for (const p of ['/1', '/2', '/3']) await call(small.url, 'GET', p);
      const list = (await call(small.url, 'GET', '/__admin/requests')).json();
      expect(list.requests.map((r: any) => r.request.url)).toEqual(['/3', '/2']);
    } finally {
      await small.stop({ removeRoot: true });
    }
  });

  it('reports requestJournalDisabled and stores nothing when disabled', async () => {
    const off = await startTestEngine({ isJournalEnabled: false });
    try {
      await call(off.url, 'GET', '/x');
      const list = (await call(off.url, 'GET', '/__admin/requests')).json();
      expect(list).toMatchObject({ requests: [], requestJournalDisabled: true });
    } finally {
      await off.stop({ removeRoot: true });
    }
  });
});
