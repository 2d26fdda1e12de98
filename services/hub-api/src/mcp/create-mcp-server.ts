import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { EnableProxySchema, StubMappingSchema } from '@mockyard/contracts';
import type { Logger } from '@mockyard/service-kit';
import { HubError, InvalidInputError } from '../domain/hub-errors';
import { parseTargetSelector } from '../domain/target-selector';
import type { HubContext } from '../hub-context';

const targetServer = z.string().optional().describe('"local" or a registered server id (UUID); omit to act on the active engine');
const stubId = z.uuid({ error: 'id must be a stub UUID' }).describe('stub id (UUID)');
const stub = z.looseObject(StubMappingSchema.shape).describe('WireMock stub mapping: {request: {method, urlPath…}, response: {status, jsonBody…}, priority…}');

type ToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean; structuredContent?: Record<string, unknown> };

/**
 * The hub's MCP tools over the same domain code as the REST API. Every engine tool takes an
 * optional `targetServer`; failures come back as tool errors (isError) with the reason.
 */
export function createMcpServer(hub: HubContext, version = '0.1.0'): McpServer {
  const server = new McpServer({ name: 'mockyard-hub', version }, { capabilities: { tools: {} } });
  const engine = (target: string | undefined) => hub.registry.resolve(parseTargetSelector(target, 'targetServer'));
  const tool = <S extends z.ZodRawShape>(name: string, description: string, shape: S, run: (args: z.infer<z.ZodObject<S>>) => Promise<unknown>) => {
    server.registerTool(name, { description, inputSchema: shape }, (async (args: z.infer<z.ZodObject<S>>) => runTool(hub.logger, name, () => run(args))) as never);
  };

  tool('list_servers', 'List the engines the hub manages (local + registered) with health, stub count and which one is active.', {}, () => hub.registry.listServers());
  tool('set_active_server', 'Make an engine the active one ("local" or a server id).', { id: z.string().describe('"local" or a registered server id') }, ({ id }) => hub.registry.setActive(id));

  tool('list_stubs', 'List the stubs of an engine.', { targetServer, limit: z.number().int().min(1).optional(), offset: z.number().int().min(0).optional() }, async ({ targetServer: t, limit, offset }) =>
    hub.operations.listStubs(await engine(t), { limit, offset }),
  );
  tool('get_stub', 'Get one stub by id.', { targetServer, id: stubId }, async ({ targetServer: t, id }) => hub.operations.getStub(await engine(t), id));
  tool('create_stub', 'Create a stub on an engine.', { targetServer, stub }, async ({ targetServer: t, stub: s }) => hub.operations.createStub(await engine(t), s));
  tool('update_stub', 'Replace a stub (same id).', { targetServer, id: stubId, stub }, async ({ targetServer: t, id, stub: s }) => hub.operations.updateStub(await engine(t), id, s));
  tool('delete_stub', 'Delete a stub.', { targetServer, id: stubId }, async ({ targetServer: t, id }) => {
    const e = await engine(t);
    await hub.operations.deleteStub(e, id);
    return { deleted: id, engine: { id: e.id, name: e.name, url: e.url } };
  });

  tool('get_proxy', 'Read an engine\'s proxy status (enabled, target URL).', { targetServer }, async ({ targetServer: t }) => hub.operations.getProxy(await engine(t)));
  tool('enable_proxy', 'Proxy requests no stub matches to targetUrl (absolute http(s) URL).', { targetServer, targetUrl: EnableProxySchema.shape.targetUrl }, async ({ targetServer: t, targetUrl }) =>
    hub.operations.enableProxy(await engine(t), targetUrl),
  );
  tool('disable_proxy', 'Stop an engine\'s proxy (other stubs untouched).', { targetServer }, async ({ targetServer: t }) => hub.operations.disableProxy(await engine(t)));

  tool(
    'start_recording',
    'Start recording traffic through an engine into stubs. targetUrl defaults to the engine\'s proxy target; options are WireMock record options (filters, captureHeaders, persist…).',
    { targetServer, targetUrl: z.url({ protocol: /^https?$/ }).optional(), options: z.record(z.string(), z.unknown()).optional() },
    async ({ targetServer: t, targetUrl, options }) => hub.operations.startRecording(await engine(t), { ...(options ?? {}), ...(targetUrl ? { targetUrl } : {}) }),
  );
  tool('stop_recording', 'Stop recording; returns the stubs captured.', { targetServer }, async ({ targetServer: t }) => hub.operations.stopRecording(await engine(t)));
  tool('get_recording_status', 'Recording status of an engine (NeverStarted, Recording, Stopped).', { targetServer }, async ({ targetServer: t }) => hub.operations.recordingStatus(await engine(t)));

  tool('list_unmatched_requests', 'Requests no stub matched, with near misses (the closest stubs and why they did not match).', { targetServer }, async ({ targetServer: t }) => {
    const e = await engine(t);
    const [unmatched, nearMisses] = await Promise.all([hub.operations.listUnmatched(e), hub.operations.listNearMisses(e)]);
    return { requests: unmatched.requests, nearMisses: nearMisses.nearMisses, engine: { id: e.id, name: e.name, url: e.url } };
  });

  tool(
    'search_traffic',
    'Search the traffic log (requests that passed through the proxy and the engines; newest first, paged). Filters combine.',
    {
      targetServer: targetServer.describe('only traffic whose URL starts at this engine\'s base URL ("local" or a server id); omit for all traffic'),
      method: z.string().optional().describe('HTTP method'),
      status: z.number().int().min(100).max(599).optional().describe('response status, exact'),
      statusClass: z.enum(['1xx', '2xx', '3xx', '4xx', '5xx']).optional(),
      host: z.string().optional().describe('target host name without port'),
      url: z.string().optional().describe('case-insensitive substring of the URL; with targetServer, a path starting with / under that engine'),
      from: z.iso.datetime({ offset: true }).optional().describe('started at or after (ISO 8601)'),
      to: z.iso.datetime({ offset: true }).optional().describe('started before (ISO 8601)'),
      minDurationMs: z.number().int().min(0).optional(),
      source: z.enum(['proxy', 'forward', 'tunnel', 'engine']).optional().describe('capture source'),
      page: z.number().int().min(0).optional(),
      size: z.number().int().min(1).max(200).optional(),
    },
    async ({ targetServer: t, url, ...filters }) => {
      if (t === undefined) return hub.traffic.searchRequests({ ...filters, url });
      if (url !== undefined && !url.startsWith('/')) throw new InvalidInputError('with targetServer, url must be a path starting with / (it is searched under that engine\'s URL)');
      const e = await engine(t);
      return hub.traffic.searchRequests({ ...filters, url: `${e.url}${url ?? ''}` });
    },
  );
  return server;
}

async function runTool(logger: Logger, name: string, run: () => Promise<unknown>): Promise<ToolResult> {
  try {
    const result = await run();
    const structured = result && typeof result === 'object' && !Array.isArray(result) ? (result as Record<string, unknown>) : { items: result };
    return { content: [{ type: 'text', text: JSON.stringify(result ?? null, null, 2) }], structuredContent: structured };
  } catch (err) {
    if (!(err instanceof HubError)) logger.error({ err, tool: name }, 'MCP tool failed unexpectedly');
    const reason = err instanceof HubError ? err.message : `unexpected error in ${name}; see the hub log`;
    return { content: [{ type: 'text', text: reason }], isError: true };
  }
}
