import http from 'node:http';
import net from 'node:net';
import { call, startTestEngine, type TestEngine } from './engine-harness';

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.stop({ removeRoot: true }));
beforeEach(() => call(engine.url, 'POST', '/__admin/reset'));

const addStub = (path: string, response: Record<string, unknown>, request: Record<string, unknown> = {}) =>
  call(engine.url, 'POST', '/__admin/mappings', { request: { method: 'ANY', urlPath: path, ...request }, response });

/** Sends a raw GET and collects what the socket receives until it closes. */
function rawGet(path: string): Promise<{ data: Buffer; error?: string }> {
  const { port } = new URL(engine.url);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`));
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', (err: NodeJS.ErrnoException) => resolve({ data: Buffer.concat(chunks), error: err.code }));
    socket.on('close', () => resolve({ data: Buffer.concat(chunks) }));
  });
}

describe('response definitions', () => {
  it('sends status, status message, headers (single and multi-value) and a text body', async () => {
    await addStub('/t', { status: 418, statusMessage: 'I am a teapot', headers: { 'Content-Type': 'text/plain', 'X-Multi': ['a', 'b'] }, body: 'short and stout' });
    const res = await call(engine.url, 'GET', '/t');
    expect(res).toMatchObject({ status: 418, statusMessage: 'I am a teapot', text: 'short and stout' });
    expect(res.headers['content-type']).toBe('text/plain');
    expect(res.headers['x-multi']).toBe('a, b');
    expect(res.headers['matched-stub-id']).toEqual(expect.any(String));
  });

  it('sends jsonBody as JSON and base64Body as bytes', async () => {
    await addStub('/j', { jsonBody: { id: 1, tags: ['a'] } });
    await addStub('/b', { base64Body: Buffer.from([0, 1, 2, 255]).toString('base64') });
    expect((await call(engine.url, 'GET', '/j')).json()).toEqual({ id: 1, tags: ['a'] });
    const bin = await new Promise<Buffer>((resolve) => http.get(`${engine.url}/b`, (r) => { const c: Buffer[] = []; r.on('data', (d) => c.push(d)); r.on('end', () => resolve(Buffer.concat(c))); }));
    expect([...bin]).toEqual([0, 1, 2, 255]);
  });

  it('serves bodyFileName from __files and answers 500 when the file is missing', async () => {
    expect((await call(engine.url, 'PUT', '/__admin/files/data/users.json', '[{"id":1}]')).status).toBe(200);
    await addStub('/file', { bodyFileName: 'data/users.json' });
    await addStub('/gone', { bodyFileName: 'nope.json' });
    expect((await call(engine.url, 'GET', '/file')).json()).toEqual([{ id: 1 }]);
    expect((await call(engine.url, 'GET', '/gone')).status).toBe(500);
  });

  it('renders response templates from the request', async () => {
    await addStub(
      '/greet',
      { transformers: ['response-template'], headers: { 'X-Method': '{{request.method}}' }, body: 'Hello {{request.query.name}} at {{request.path}}' },
    );
    const res = await call(engine.url, 'GET', '/greet?name=Ada');
    expect(res.text).toBe('Hello Ada at /greet');
    expect(res.headers['x-method']).toBe('GET');
  });

  it('templates jsonBody with path parameters of a urlPathTemplate and transformer parameters', async () => {
    await call(engine.url, 'POST', '/__admin/mappings', {
      request: { method: 'GET', urlPathTemplate: '/users/{userId}' },
      response: { transformers: ['response-template'], transformerParameters: { greeting: 'hi' }, jsonBody: { id: '{{request.path.userId}}', say: '{{parameters.greeting}}' } },
    });
    expect((await call(engine.url, 'GET', '/users/42')).json()).toEqual({ id: '42', say: 'hi' });
  });

  it('decodes request.path in templates but keeps a path template\'s path and parameters as sent, as WireMock 3.13 does', async () => {
    const template = { body: '{{request.path}}|{{request.pathSegments.[1]}}|{{request.path.id}}', transformers: ['response-template'] };
    await call(engine.url, 'POST', '/__admin/mappings', { request: { urlPathPattern: '/t/.*' }, response: template });
    await call(engine.url, 'POST', '/__admin/mappings', { request: { urlPathTemplate: '/c/{id}' }, response: template });
    await call(engine.url, 'POST', '/__admin/mappings', { request: { urlPathTemplate: '/d/{id}', pathParameters: { id: { equalTo: 'a b' } } }, response: { body: 'decoded' } });
    expect((await call(engine.url, 'GET', '/t/a%20b/c')).text).toBe('/t/a b/c|a b|');
    expect((await call(engine.url, 'GET', '/c/a%20b')).text).toBe('/c/a%20b|a%20b|a%20b');
    expect((await call(engine.url, 'GET', '/d/a%20b')).status).toBe(404);
  });

  it('templates every response when global templating is on, revealing only permitted system values', async () => {
    const global = await startTestEngine({ isGlobalTemplating: true, systemValues: { 'ENVIRONMENT:wiremock_team': 'core' } });
    try {
      await call(global.url, 'POST', '/__admin/mappings', {
        request: { urlPath: '/g' },
        response: { body: "{{request.method}} {{request.url}} {{systemValue type='ENVIRONMENT' key='wiremock_team'}} {{systemValue type='ENVIRONMENT' key='PATH' default='hidden'}}" },
      });
      expect((await call(global.url, 'GET', '/g?x=1')).text).toBe('GET /g?x=1 core hidden');
    } finally {
      await global.stop({ removeRoot: true });
    }
  });

  it('answers 500 with the error when a template does not render, and keeps serving', async () => {
    await addStub('/broken', { transformers: ['response-template'], body: 'Hello {{#each}}' });
    const res = await call(engine.url, 'GET', '/broken');
    expect(res.status).toBe(500);
    expect(res.text).toMatch(/template/i);
    await addStub('/fine', { body: 'ok' });
    expect((await call(engine.url, 'GET', '/fine')).text).toBe('ok');
  });

  it('records the configured fixed delay and the global delay in the journal timing', async () => {
    await addStub('/slow', { fixedDelayMilliseconds: 30, body: 'late' });
    expect((await call(engine.url, 'GET', '/slow')).text).toBe('late');
    await call(engine.url, 'POST', '/__admin/settings', { fixedDelay: 20 });
    expect((await call(engine.url, 'GET', '/__admin/settings')).json().settings.fixedDelay).toBe(20);
    await addStub('/global', { body: 'g' });
    await call(engine.url, 'GET', '/global');
    await call(engine.url, 'POST', '/__admin/settings', { fixedDelay: 0 });
    const events = (await call(engine.url, 'GET', '/__admin/requests')).json().requests;
    expect(events.map((e: any) => [e.request.url, e.timing.addedDelay])).toEqual([['/global', 20], ['/slow', 30]]);
  });

  it('merges extended settings', async () => {
    expect((await call(engine.url, 'PATCH', '/__admin/settings/extended', { team: 'core' })).status).toBe(200);
    expect((await call(engine.url, 'GET', '/__admin/settings')).json().settings.extended).toEqual({ team: 'core' });
  });

  it('rejects a delay distribution it does not know', async () => {
    const res = await call(engine.url, 'POST', '/__admin/settings', { delayDistribution: { type: 'gaussian' } });
    expect(res.status).toBe(422);
    await addStub('/u', { delayDistribution: { type: 'uniform', lower: 1, upper: 3 }, body: 'u' });
    expect((await call(engine.url, 'GET', '/u')).text).toBe('u');
  });

  it('dribbles a chunked body in several writes', async () => {
    await addStub('/dribble', { body: 'abcdefghij', chunkedDribbleDelay: { numberOfChunks: 5, totalDuration: 100 } });
    const { data } = await rawGet('/dribble');
    const text = data.toString('latin1');
    expect(text).toMatch(/transfer-encoding: chunked/i);
    expect(text.match(/\r\n2\r\n/g)).toHaveLength(5);
  });
});

describe('request size limit', () => {
  it('answers 413 to a request body over the limit and keeps serving', async () => {
    const small = await startTestEngine({ maxRequestBodyBytes: 1000 });
    try {
      await call(small.url, 'POST', '/__admin/mappings', { request: { urlPath: '/up' }, response: { body: 'ok' } });
      expect((await call(small.url, 'POST', '/up', Buffer.alloc(5000, 'x'))).status).toBe(413);
      expect((await call(small.url, 'POST', '/up', Buffer.alloc(10, 'x'))).text).toBe('ok');
    } finally {
      await small.stop({ removeRoot: true });
    }
  });
});

describe('faults', () => {
  it('resets the connection for CONNECTION_RESET_BY_PEER', async () => {
    await addStub('/reset', { fault: 'CONNECTION_RESET_BY_PEER' });
    const result = await rawGet('/reset');
    expect(result.error).toBe('ECONNRESET');
    expect(result.data.length).toBe(0);
  });

  it('closes without a byte for EMPTY_RESPONSE', async () => {
    await addStub('/empty', { fault: 'EMPTY_RESPONSE' });
    const result = await rawGet('/empty');
    expect(result.error).toBeUndefined();
    expect(result.data.length).toBe(0);
  });

  it('sends a status line then a garbage chunk for MALFORMED_RESPONSE_CHUNK', async () => {
    await addStub('/malformed', { status: 200, fault: 'MALFORMED_RESPONSE_CHUNK' });
    const { data } = await rawGet('/malformed');
    expect(data.toString('latin1')).toMatch(/^HTTP\/1\.1 200 /);
    await expect(call(engine.url, 'GET', '/malformed')).rejects.toThrow();
  });

  it('sends bytes that are not HTTP for RANDOM_DATA_THEN_CLOSE', async () => {
    await addStub('/random', { fault: 'RANDOM_DATA_THEN_CLOSE' });
    const { data } = await rawGet('/random');
    expect(data.length).toBeGreaterThan(0);
    await expect(call(engine.url, 'GET', '/random')).rejects.toThrow();
    const events = (await call(engine.url, 'GET', '/__admin/requests?limit=1')).json().requests;
    expect(events[0].response.fault).toBe('RANDOM_DATA_THEN_CLOSE');
  });
});
