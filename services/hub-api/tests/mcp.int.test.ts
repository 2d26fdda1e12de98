import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Redis from 'ioredis';
// Tests only: the real traffic-logger in-process, through its own test fixture, for search_traffic.
import { makeEvent, publish, startLogger, type RunningLogger } from '../../traffic-logger/tests/logger-fixture';
import { buildHub, REPO_ROOT } from './support/build-hub';
import { call, createTestBackends, eventually, startHub, type RunningHub } from './support/start-hub';
import { startWireMock, wireMockUnavailableReason, type WireMockServer } from './support/wiremock';

jest.setTimeout(60000);
const skipReason = wireMockUnavailableReason();
const describeWithEngines = skipReason ? describe.skip : describe;
if (skipReason) process.stderr.write(`\n[hub-api] SKIPPED MCP tests with genuine WireMock: ${skipReason}\n`);

const KEY = 'mcp-test-key';
const TRAFFIC_KEY = 'mcp-test-traffic-key';

type ToolResult = { isError?: boolean; content: { type: string; text: string }[] };
const json = (r: unknown) => JSON.parse((r as ToolResult).content[0].text);

describeWithEngines(`MCP tools through the SDK client (genuine WireMock${skipReason ? `; SKIPPED: ${skipReason}` : ''})`, () => {
  let backends: Awaited<ReturnType<typeof createTestBackends>>;
  let local: WireMockServer;
  let remote: WireMockServer;
  let logger: RunningLogger;
  let hub: RunningHub;
  let client: Client;
  let remoteId: string;
  const tool = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<ToolResult>;

  beforeAll(async () => {
    [backends, local, remote] = await Promise.all([createTestBackends(), startWireMock(), startWireMock()]);
    // The log behind its own key (traffic.security.api-key): the hub sends it (hub.logger-api-key, the same TRAFFIC_API_KEY).
    logger = await startLogger(backends.database, backends.redis, { TRAFFIC_API_KEY: TRAFFIC_KEY });
    hub = await startHub({ ...backends, env: { LOCAL_ENGINE_URL: local.url, LOGGER_URL: logger.url, HUB_API_KEY: KEY, TRAFFIC_API_KEY: TRAFFIC_KEY }, startJobs: false });
    remoteId = (await call(hub.url, 'POST', '/hub/admin/registry/servers', { body: { name: 'remote', url: remote.url }, headers: { 'X-Hub-Api-Key': KEY } })).body.id;
    client = new Client({ name: 'hub-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${hub.url}/mcp`), { requestInit: { headers: { 'X-Hub-Api-Key': KEY } } }));
  });
  afterAll(async () => {
    await client?.close();
    await hub?.stop();
    await logger?.close();
    await Promise.all([local?.remove(), remote?.remove()]);
    await backends?.cleanup();
  });

  it('offers every tool, each engine tool with an optional targetServer', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(
      ['create_stub', 'delete_stub', 'disable_proxy', 'enable_proxy', 'get_proxy', 'get_recording_status', 'get_stub', 'list_servers', 'list_stubs', 'list_unmatched_requests', 'search_traffic', 'set_active_server', 'start_recording', 'stop_recording', 'update_stub'].sort(),
    );
    for (const t of tools.filter((x) => !['list_servers', 'set_active_server'].includes(x.name))) {
      expect([t.name, (t.inputSchema.properties as Record<string, unknown>).targetServer]).toEqual([t.name, expect.any(Object)]);
      expect([t.name, t.inputSchema.required ?? []]).toEqual([t.name, expect.not.arrayContaining(['targetServer'])]);
    }
  });

  it('lists and chooses servers', async () => {
    const servers = json(await tool('list_servers'));
    expect(servers.map((s: { id: string }) => s.id)).toEqual(['local', remoteId]);
    expect(json(await tool('set_active_server', { id: remoteId }))).toMatchObject({ id: remoteId, active: true });
    expect((await call(hub.url, 'GET', '/hub/admin/registry/active', { headers: { 'X-Hub-Api-Key': KEY } })).body.id).toBe(remoteId);
    await tool('set_active_server', { id: 'local' });
  });

  it('creates, lists, gets, updates and deletes stubs on the active or targeted engine', async () => {
    const created = json(await tool('create_stub', { targetServer: remoteId, stub: { request: { method: 'GET', urlPath: '/mcp' }, response: { status: 200, jsonBody: { v: 1 } } } }));
    expect(created.id).toEqual(expect.any(String));
    expect(json(await tool('list_stubs', { targetServer: remoteId })).mappings.map((m: { id: string }) => m.id)).toEqual([created.id]);
    expect(json(await tool('list_stubs')).mappings).toEqual([]); // active = local
    expect(json(await tool('get_stub', { targetServer: remoteId, id: created.id })).response.jsonBody).toEqual({ v: 1 });
    const updated = json(await tool('update_stub', { targetServer: remoteId, id: created.id, stub: { request: { method: 'GET', urlPath: '/mcp' }, response: { status: 200, jsonBody: { v: 2 } } } }));
    expect(updated.response.jsonBody).toEqual({ v: 2 });
    expect(await (await fetch(`${remote.url}/mcp`)).json()).toEqual({ v: 2 });
    expect(json(await tool('delete_stub', { targetServer: remoteId, id: created.id }))).toMatchObject({ deleted: created.id });
    const gone = await tool('get_stub', { targetServer: remoteId, id: created.id });
    expect(gone.isError).toBe(true);
    expect(gone.content[0].text).toContain('404');
  });

  it('enables, reads and disables the proxy, and starts, reads and stops a recording', async () => {
    await call(remote.url, 'POST', '/__admin/mappings', { body: { request: { method: 'GET', urlPath: '/rec' }, response: { status: 200, body: 'from remote' } } });
    expect(json(await tool('enable_proxy', { targetUrl: remote.url }))).toMatchObject({ enabled: true, targetUrl: remote.url, engine: { id: 'local' } });
    expect(json(await tool('get_proxy'))).toMatchObject({ enabled: true });
    expect(json(await tool('get_proxy', { targetServer: remoteId }))).toMatchObject({ enabled: false });
    expect(json(await tool('start_recording', {}))).toMatchObject({ status: 'Recording', targetUrl: remote.url });
    expect(json(await tool('get_recording_status'))).toMatchObject({ status: 'Recording' });
    expect(await (await fetch(`${local.url}/rec`)).text()).toBe('from remote');
    const stopped = json(await tool('stop_recording'));
    expect(stopped.mappings.map((m: { request: { url: string } }) => m.request.url)).toEqual(['/rec']);
    expect(json(await tool('disable_proxy'))).toMatchObject({ enabled: false });
  });

  it('lists unmatched requests with their near misses', async () => {
    await call(local.url, 'DELETE', '/__admin/requests');
    await call(local.url, 'POST', '/__admin/mappings', { body: { request: { method: 'GET', urlPath: '/books' }, response: { status: 200 } } });
    await (await fetch(`${local.url}/bookz`)).text();
    const result = json(await tool('list_unmatched_requests', { targetServer: 'local' }));
    expect(result.requests.map((r: { url: string }) => r.url)).toContain('/bookz');
    expect(result.nearMisses[0].stubMapping.request.urlPath).toBe('/books');
  });

  it('searches the real traffic log with filters, and by engine with targetServer', async () => {
    const redis = new Redis(backends.redis.url);
    try {
      await publish(redis, backends.redis.prefix, [
        makeEvent({ method: 'GET', url: 'http://api.example.test/orders/1' }),
        makeEvent({ method: 'POST', url: 'http://api.example.test/orders', response: { status: 500, headers: {} } }),
        makeEvent({ source: 'engine', method: 'GET', url: `${local.url}/books/7`, request: { headers: { host: new URL(local.url).host } } }),
      ]);
    } finally {
      redis.disconnect();
    }
    expect((await call(logger.url, 'GET', '/api/requests')).status).toBe(401);
    await eventually(() => call(logger.url, 'GET', '/api/requests', { headers: { 'X-Api-Key': TRAFFIC_KEY } }), (r) => r.body.totalElements === 3);
    const all = json(await tool('search_traffic', {}));
    expect(all).toMatchObject({ totalElements: 3, number: 0 });
    const posts = json(await tool('search_traffic', { method: 'post', status: 500 }));
    expect(posts.content.map((r: { url: string }) => r.url)).toEqual(['http://api.example.test/orders']);
    expect(json(await tool('search_traffic', { host: 'api.example.test', size: 1 }))).toMatchObject({ totalElements: 2, size: 1, content: [expect.any(Object)] });
    const onLocal = json(await tool('search_traffic', { targetServer: 'local' }));
    expect(onLocal.content.map((r: { url: string }) => r.url)).toEqual([`${local.url}/books/7`]);
    expect(json(await tool('search_traffic', { targetServer: 'local', url: '/books' })).totalElements).toBe(1);
    expect(json(await tool('search_traffic', { targetServer: remoteId })).totalElements).toBe(0);
    const bad = await tool('search_traffic', { targetServer: 'local', url: 'books' });
    expect(bad.isError).toBe(true);
  });

  it.each([
    ['an unknown target server', 'list_stubs', { targetServer: '00000000-0000-4000-8000-000000000009' }, 'no registered server'],
    ['a malformed target server', 'get_proxy', { targetServer: 'engine-b' }, 'malformed'],
    ['an unknown active server id', 'set_active_server', { id: '00000000-0000-4000-8000-000000000009' }, 'no registered server'],
    ['an invalid proxy URL', 'enable_proxy', { targetUrl: 'nope' }, 'targetUrl'],
    ['a stub the engine refuses', 'create_stub', { stub: { request: { urlPathx: '/x' }, response: { status: 200 } } }, 'urlPathx'],
  ])('returns a tool error with the reason for %s', async (_what, name, args, reason) => {
    const res = await tool(name, args);
    expect(res.isError).toBe(true);
    expect(res.content[0].text).toContain(reason);
  });

  it('returns a tool error naming the engine when it is down', async () => {
    await remote.stop();
    try {
      const res = await tool('list_stubs', { targetServer: remoteId });
      expect(res.isError).toBe(true);
      expect(res.content[0].text).toContain(remote.url);
    } finally {
      await remote.restart();
    }
  });

  it('returns a tool error when the traffic logger is unreachable', async () => {
    await logger.close();
    const res = await tool('search_traffic', {});
    expect(res.isError).toBe(true);
    expect(res.content[0].text).toContain('traffic logger');
  });

  it('offers the same tools over stdio (dist/mcp-stdio.js) for desktop clients', async () => {
    await buildHub();
    const stdio = new Client({ name: 'hub-test-stdio', version: '1.0.0' });
    await stdio.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(REPO_ROOT, 'services', 'hub-api', 'dist', 'mcp-stdio.js')],
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: backends.database.url, LOCAL_ENGINE_URL: local.url, LOG_LEVEL: 'WARN', MOCKYARD_CONFIG_FILE: '/dev/null' },
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await stdio.listTools();
      expect(tools).toHaveLength(15);
      const servers = JSON.parse(((await stdio.callTool({ name: 'list_servers', arguments: {} })) as ToolResult).content[0].text);
      expect(servers.map((s: { id: string }) => s.id)).toEqual(['local', remoteId]);
      const res = (await stdio.callTool({ name: 'list_stubs', arguments: { targetServer: 'local' } })) as ToolResult;
      expect(JSON.parse(res.content[0].text).mappings.map((m: { request: { urlPath: string } }) => m.request.urlPath)).toContain('/books');
    } finally {
      await stdio.close();
    }
  });
});
