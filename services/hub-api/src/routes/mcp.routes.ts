import { Router } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { HttpProblem, type ApiRegistry } from '@mockyard/service-kit';
import { createMcpServer } from '../mcp/create-mcp-server';
import type { HubContext } from '../hub-context';

/**
 * MCP over streamable HTTP at /mcp, stateless: every POST gets a fresh server and transport (no
 * session to lose across restarts or replicas). GET/DELETE (server-initiated streams, session end)
 * are not offered: 405.
 */
export function mcpRoutes(hub: HubContext, api: ApiRegistry): Router {
  const r = Router();
  api.add({ method: 'post', path: '/mcp', tags: ['mcp'], summary: 'Model Context Protocol (streamable HTTP, stateless JSON-RPC)', responses: { 200: { description: 'JSON-RPC response (JSON or SSE)' } } });
  r.post('/', async (req, res) => {
    const server = createMcpServer(hub);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  r.all('/', (req, _res, next) => {
    next(new HttpProblem(405, 'validation', `${req.method} /mcp is not supported: this MCP endpoint is stateless, POST JSON-RPC messages to it`, { headers: { Allow: 'POST' } }));
  });
  return r;
}
