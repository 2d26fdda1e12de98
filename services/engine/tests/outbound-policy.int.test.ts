import { Writable } from 'node:stream';
import { createLogger, OutboundPolicy, type OutboundPolicySettings } from '@mockyard/service-kit';
import { call, startTestEngine, startUpstream, type TestEngine } from './engine-harness';

// engine.outbound.*: where proxy stubs (so recordings) and webhooks may connect, against real local servers.
const LOOPBACK = ['127.0.0.0/8', '::1'];

let upstream: Awaited<ReturnType<typeof startUpstream>>;
const engines: TestEngine[] = [];

function policy(settings: Partial<OutboundPolicySettings> = {}) {
  return new OutboundPolicy({ allow: [], deny: [], allowLinkLocal: false, configKey: 'engine.outbound', ...settings });
}

async function engineWith(settings: Partial<OutboundPolicySettings>, logLines?: Record<string, unknown>[]) {
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines?.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  const engine = await startTestEngine({ outbound: policy(settings), logger: createLogger({ service: 'engine-test', level: 'warn', destination }) });
  engines.push(engine);
  return engine;
}

async function proxyStub(engine: TestEngine, path: string, proxyBaseUrl: string) {
  expect((await call(engine.url, 'POST', '/__admin/mappings', { request: { urlPath: path }, response: { proxyBaseUrl } })).status).toBe(201);
}

beforeAll(async () => {
  upstream = await startUpstream((_req, _body, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('from upstream'));
});
afterAll(async () => {
  for (const engine of engines) await engine.stop({ removeRoot: true });
  await upstream.close();
});
beforeEach(() => {
  upstream.received.length = 0;
});

describe('proxy stubs under engine.outbound.*', () => {
  it('refuses the cloud metadata address by default with 500 naming the rule, and proxies to loopback', async () => {
    const engine = await startTestEngine();
    engines.push(engine);
    await proxyStub(engine, '/meta', 'http://169.254.169.254/latest');
    await proxyStub(engine, '/local', upstream.url);
    const refused = await call(engine.url, 'GET', '/meta');
    expect(refused.status).toBe(500);
    expect(refused.text).toBe(
      "The target proxy address is denied in the engine's configuration: Outbound connection to 169.254.169.254 is refused: 169.254.0.0/16 is link-local / cloud metadata, denied while engine.outbound.allow-link-local=false",
    );
    const proxied = await call(engine.url, 'GET', '/local');
    expect(proxied).toMatchObject({ status: 200, text: 'from upstream' });
  });

  it('refuses a name by the addresses it resolves to (deny), without connecting to the target', async () => {
    const engine = await engineWith({ deny: LOOPBACK });
    await proxyStub(engine, '/by-name', upstream.url.replace('127.0.0.1', 'localhost'));
    const res = await call(engine.url, 'GET', '/by-name');
    expect(res.status).toBe(500);
    expect(res.text).toContain('Outbound connection to localhost (it resolves to 127.0.0.1) is refused by engine.outbound.deny entry 127.0.0.0/8');
    expect(upstream.received).toHaveLength(0);
    // the refusal is the answer, logged in the journal like any other served request
    const journal = (await call(engine.url, 'GET', '/__admin/requests')).json();
    expect(journal.requests[0].response.status).toBe(500);
  });

  it('refuses the unspecified address (it reaches this host) when loopback is denied', async () => {
    const engine = await engineWith({ deny: LOOPBACK });
    const port = new URL(upstream.url).port;
    await proxyStub(engine, '/zero', `http://0.0.0.0:${port}`);
    await proxyStub(engine, '/zero-short', `http://0:${port}`);
    for (const path of ['/zero', '/zero-short']) {
      const res = await call(engine.url, 'GET', path);
      expect(res.status).toBe(500);
      expect(res.text).toContain('Outbound connection to 0.0.0.0 is refused by engine.outbound.deny entry 127.0.0.0/8');
    }
    expect(upstream.received).toHaveLength(0);
  });

  it('with an allow list, proxies to what it names and refuses the rest', async () => {
    const engine = await engineWith({ allow: ['127.0.0.1'] });
    await proxyStub(engine, '/allowed', upstream.url);
    await proxyStub(engine, '/elsewhere', 'http://10.255.255.1:9');
    expect(await call(engine.url, 'GET', '/allowed')).toMatchObject({ status: 200, text: 'from upstream' });
    const refused = await call(engine.url, 'GET', '/elsewhere');
    expect(refused.status).toBe(500);
    expect(refused.text).toContain('Outbound connection to 10.255.255.1 is refused: it matches no engine.outbound.allow entry (127.0.0.1)');
  });

  it("keeps each engine's upstream sockets apart: one opened under another policy is never reused", async () => {
    const open = await engineWith({});
    const closed = await engineWith({ deny: LOOPBACK });
    const target = upstream.url.replace('127.0.0.1', 'localhost');
    for (const engine of [open, closed]) await proxyStub(engine, '/pooled', target);
    expect(await call(open.url, 'GET', '/pooled')).toMatchObject({ status: 200, text: 'from upstream' });
    const refused = await call(closed.url, 'GET', '/pooled');
    expect(refused.status).toBe(500);
    expect(refused.text).toContain('engine.outbound.deny');
    expect(upstream.received).toHaveLength(1);
  });

  it('applies to recordings, which proxy through the same stubs', async () => {
    const engine = await engineWith({ deny: LOOPBACK });
    expect((await call(engine.url, 'POST', '/__admin/recordings/start', { targetBaseUrl: upstream.url })).status).toBe(200);
    const res = await call(engine.url, 'GET', '/recorded');
    expect(res.status).toBe(500);
    expect(res.text).toContain('engine.outbound.deny entry 127.0.0.0/8');
    await call(engine.url, 'POST', '/__admin/recordings/stop');
    expect(upstream.received).toHaveLength(0);
  });
});

describe('webhooks under engine.outbound.*', () => {
  async function fireWebhooks(engine: TestEngine, urls: string[]) {
    await call(engine.url, 'POST', '/__admin/mappings', {
      request: { urlPath: '/hook' },
      response: { status: 204 },
      serveEventListeners: urls.map((url) => ({ name: 'webhook', parameters: { method: 'POST', url, body: 'event' } })),
    });
    expect((await call(engine.url, 'GET', '/hook')).status).toBe(204);
    const deadline = Date.now() + 5000;
    while (engine.webhooks.stats.sent + engine.webhooks.stats.failed < urls.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  }

  it('does not send a webhook to a denied address or name, and logs what refused it', async () => {
    const logLines: Record<string, unknown>[] = [];
    const engine = await engineWith({ deny: LOOPBACK }, logLines);
    await fireWebhooks(engine, [`${upstream.url}/literal`, `${upstream.url.replace('127.0.0.1', 'localhost')}/name`]);
    expect(engine.webhooks.stats).toEqual({ sent: 0, failed: 2 });
    expect(upstream.received).toHaveLength(0);
    const reasons = logLines.filter((l) => l.msg === 'webhook failed').map((l) => l.err);
    expect(reasons).toEqual(
      expect.arrayContaining([
        'Outbound connection to 127.0.0.1 is refused by engine.outbound.deny entry 127.0.0.0/8',
        'Outbound connection to localhost (it resolves to 127.0.0.1) is refused by engine.outbound.deny entry 127.0.0.0/8',
      ]),
    );
  });

  it('does not follow a redirect, which could lead to an address the policy refuses', async () => {
    // only the name is allowed: the redirect's IP literal would be refused, and is reachable, so following
    // the redirect would show there
    const hidden = await startUpstream((_req, _body, res) => res.writeHead(200).end('hidden'));
    const redirecting = await startUpstream((_req, _body, res) => res.writeHead(302, { location: `${hidden.url}/secret` }).end());
    try {
      const engine = await engineWith({ allow: ['localhost'] });
      await fireWebhooks(engine, [`${redirecting.url.replace('127.0.0.1', 'localhost')}/hook-target`]);
      expect(engine.webhooks.stats).toEqual({ sent: 1, failed: 0 });
      expect(redirecting.received.map((r) => r.url)).toEqual(['/hook-target']);
      expect(hidden.received).toHaveLength(0);
    } finally {
      await hidden.close();
      await redirecting.close();
    }
  });

  it('sends webhooks the policy allows', async () => {
    const engine = await engineWith({ allow: ['localhost', '127.0.0.1'] });
    await fireWebhooks(engine, [`${upstream.url}/literal`, `${upstream.url.replace('127.0.0.1', 'localhost')}/name`]);
    expect(engine.webhooks.stats).toEqual({ sent: 2, failed: 0 });
    expect(upstream.received.map((r) => r.url).sort()).toEqual(['/literal', '/name']);
  });
});
