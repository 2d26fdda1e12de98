import { WireMockRestClient } from 'wiremock-rest-client';
import { startTestEngine, type TestEngine } from './engine-harness';

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.stop({ removeRoot: true }));

describe('a published WireMock client (wiremock-rest-client) against the engine', () => {
  it('creates a stub, calls it, verifies the journal and resets', async () => {
    const wiremock = new WireMockRestClient(engine.url, { logLevel: 'silent' } as never);
    const created = await wiremock.mappings.createMapping({
      request: { method: 'GET', urlPath: '/client/hello', queryParameters: { who: { equalTo: 'ada' } } },
      response: { status: 200, jsonBody: { greeting: 'hello ada' }, headers: { 'Content-Type': 'application/json' } },
    } as never);
    expect((created as { id: string }).id).toEqual(expect.any(String));

    const res = await fetch(`${engine.url}/client/hello?who=ada`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ greeting: 'hello ada' });

    const count = await wiremock.requests.getCount({ method: 'GET', urlPath: '/client/hello' } as never);
    expect(count.count).toBe(1);
    const all = await wiremock.requests.getAllRequests();
    expect(all.requests[0].request.url).toBe('/client/hello?who=ada');
    const mappings = await wiremock.mappings.getAllMappings();
    expect(mappings.mappings).toHaveLength(1);

    await wiremock.global.resetAll();
    expect((await wiremock.mappings.getAllMappings()).mappings).toHaveLength(0);
    expect((await wiremock.requests.getAllRequests()).requests).toHaveLength(0);
  });
});
