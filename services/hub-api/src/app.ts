import type { Express } from 'express';
import { ApiRegistry, createServiceApp, finishApp, requireApiKey } from '@mockyard/service-kit';
import type { HubContext } from './hub-context';
import { actuatorRoutes } from './routes/actuator.routes';
import { fanoutRoutes } from './routes/fanout.routes';
import { mappingsRoutes } from './routes/mappings.routes';
import { mcpRoutes } from './routes/mcp.routes';
import { proxyRoutes } from './routes/proxy.routes';
import { recordingsRoutes } from './routes/recordings.routes';
import { registryRoutes } from './routes/registry.routes';
import { hubErrorMapper } from './routes/to-http-problem';

export interface HubAppOptions {
  /** When set, /hub/admin/* and /mcp require it (X-Hub-Api-Key or Authorization: Bearer). */
  apiKey?: string;
  /** `server.allowed-hosts`: names besides IP addresses and localhost a request's Host may give. */
  allowedHosts?: readonly string[];
}

/** The hub's express app: registry, engine operations, fan-out, actuator health and MCP. No listen, no env. */
export function createApp(hub: HubContext, options: HubAppOptions = {}): Express {
  const api = new ApiRegistry({ title: 'Mockyard hub', version: '0.1.0', description: 'Management plane for WireMock-compatible mock engines' });
  const app = createServiceApp({
    service: 'hub-api',
    logger: hub.logger,
    api,
    readiness: { database: hub.checks.database, ...(hub.checks.redis ? { redis: hub.checks.redis } : {}) },
    jsonLimit: '10mb',
    allowedHosts: options.allowedHosts,
  });
  const key = { header: 'X-Hub-Api-Key', setting: 'hub.security.api-key' };
  api.keyProtected({ prefixes: ['/hub/admin', '/mcp'], ...key });
  const guard = requireApiKey({ apiKey: options.apiKey, ...key });
  app.use('/hub/admin', guard);
  app.use('/mcp', guard);
  app.use('/hub/admin/registry', registryRoutes(hub, api));
  app.use('/hub/admin', mappingsRoutes(hub, api), proxyRoutes(hub, api), recordingsRoutes(hub, api), fanoutRoutes(hub, api));
  app.use('/actuator', actuatorRoutes(hub, api));
  app.use('/mcp', mcpRoutes(hub, api));
  app.use(hubErrorMapper);
  return finishApp(app);
}
