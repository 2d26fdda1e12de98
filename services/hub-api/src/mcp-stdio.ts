#!/usr/bin/env node
// MCP over stdio for desktop clients (`mockyard-hub-mcp`): the same tools as /mcp, in-process against
// the hub's database and the engines. stdout carries the protocol, so logs go to stderr.
import pino from 'pino';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ConfigError } from '@mockyard/config';
import { createLogger } from '@mockyard/service-kit';
import { loadHubConfig } from './config';
import { createHub } from './create-hub';
import { createMcpServer } from './mcp/create-mcp-server';

async function main() {
  const config = loadHubConfig({ env: process.env });
  const logger = createLogger({ service: 'hub-mcp-stdio', level: config.logLevel, destination: pino.destination(2) });
  const hub = await createHub({ config, logger, withQueues: false });
  const server = createMcpServer(hub.context);
  const transport = new StdioServerTransport();
  const stop = async () => {
    await server.close();
    await hub.stop();
    process.exit(0);
  };
  transport.onclose = () => void stop();
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
  await server.connect(transport);
  logger.info({ localEngineUrl: config.localEngineUrl }, 'MCP stdio server ready');
}

main().catch((err) => {
  process.stderr.write(`hub MCP stdio failed to start: ${err instanceof ConfigError ? err.message : (err as Error).stack}\n`);
  process.exit(1);
});
