import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { ApiRegistry, createKeyMatcher, createServiceApp, finishApp, OutboundPolicy, presentedApiKey, type Logger } from '@mockyard/service-kit';
import { createFileMappingsRepo } from './adapters/file-mappings.repo';
import { createFsBodyFiles } from './adapters/fs-body-files';
import { createWebhookSender, type WebhookSender } from './adapters/webhook.sender';
import { AdminError } from './domain/admin-error';
import { MockEngine } from './domain/mock-engine';
import { noTrafficSink, type TrafficSink } from './domain/ports';
import { Recorder } from './domain/recorder';
import { createAdminErrorHandler } from './routes/admin-route';
import { registerMappingRoutes } from './routes/mappings.routes';
import { registerRecordingRoutes } from './routes/recordings.routes';
import { registerRequestRoutes } from './routes/requests.routes';
import { registerStateRoutes } from './routes/state.routes';
import { registerSystemRoutes } from './routes/system.routes';
import { createProxyConnections } from './serve/proxy-request';
import { createServeHandler } from './serve/serve-request';

export const ENGINE_VERSION = '0.1.0';

export interface EngineDeps {
  logger: Logger;
  name: string;
  /** How the hub and the proxy status name this engine's URL (a function when only known after listen). */
  publicUrl: string | (() => string);
  rootDir: string;
  journalMaxEntries?: number;
  isJournalEnabled?: boolean;
  isGlobalTemplating?: boolean;
  adminApiKey?: string;
  proxyTimeoutMs?: number;
  /**
   * Where proxy stubs (and so recordings) and webhooks may connect (`engine.outbound.*`); default: anywhere
   * but link-local and cloud metadata addresses.
   */
  outbound?: OutboundPolicy;
  maxAdminBodyBytes?: number;
  maxRequestBodyBytes?: number;
  /** Values the `systemValue` template helper may read (`ENVIRONMENT:<name>` → value); main.ts fills it. */
  systemValues?: Record<string, string>;
  traffic?: TrafficSink;
  onShutdownRequest?: () => void;
}

export interface EngineApp {
  /** The one request listener: `/__admin…` goes to the admin app, everything else to the stubs. */
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  engine: MockEngine;
  recorder: Recorder;
  webhooks: WebhookSender;
  /** Stops background work the app started (webhooks waiting for their delay) and closes pooled upstream sockets. */
  stop(): void;
}

function isAdminPath(url: string): boolean {
  return url.startsWith('/__admin') && (url.length === 8 || url[8] === '/' || url[8] === '?');
}

/** Open even with an admin key, so health checks need no secret (they reveal no stub data). */
const OPEN_ADMIN_PATHS = new Set(['/health', '/version']);

/** The admin key (service-kit's comparison), answered WireMock's way: an AdminError, health and version open. */
function requireAdminKey(key: string) {
  const matches = createKeyMatcher(key, 'engine.admin-api-key');
  return (req: Request, _res: Response, next: NextFunction) => {
    if (req.method === 'GET' && OPEN_ADMIN_PATHS.has(req.path)) return next();
    if (matches(presentedApiKey(req, 'X-Hub-Api-Key'))) return next();
    next(new AdminError(401, [{ code: 401, title: 'Admin API key required in X-Hub-Api-Key or Authorization: Bearer' }]));
  };
}

/** Builds the engine (stubs loaded from the root dir) and its request listener; no listen, no env. */
export async function createEngineApp(deps: EngineDeps): Promise<EngineApp> {
  const traffic = deps.traffic ?? noTrafficSink;
  const engine = new MockEngine({
    mappings: createFileMappingsRepo(deps.rootDir),
    files: createFsBodyFiles(deps.rootDir),
    traffic,
    journalMaxEntries: deps.journalMaxEntries ?? 10000,
    isJournalEnabled: deps.isJournalEnabled ?? true,
    isGlobalTemplating: deps.isGlobalTemplating ?? false,
    onWarning: (message, data) => deps.logger.warn(data, message),
  });
  const loaded = await engine.loadFromDisk();
  deps.logger.info({ rootDir: deps.rootDir, stubs: loaded }, 'stub mappings loaded');
  engine.serveListeners.add((event) => engine.journal.add(event));
  engine.serveListeners.add((event) => traffic.publish(event));
  const outbound = deps.outbound ?? new OutboundPolicy({ allow: [], deny: [], allowLinkLocal: false, configKey: 'engine.outbound' });
  const webhooks = createWebhookSender({ logger: deps.logger, systemValues: deps.systemValues, outbound });
  const proxyConnections = createProxyConnections(outbound);
  engine.serveListeners.add((event) => webhooks.onServed(event));
  const recorder = new Recorder(engine);

  const api = new ApiRegistry({ title: 'Mockyard engine (WireMock-compatible admin API)', version: ENGINE_VERSION });
  const app = createServiceApp({
    service: 'engine',
    logger: deps.logger,
    api,
    rawPaths: ['/__admin'],
    // Any Host, as WireMock: stubs answer whatever name a client uses (and may match on it), and clients reach
    // /__admin by container and host names. Protect /__admin with engine.admin-api-key instead.
    allowedHosts: ['*'],
  });
  const router = express.Router();
  const ctx = { router, api };
  registerMappingRoutes(ctx, engine);
  registerRequestRoutes(ctx, engine);
  registerRecordingRoutes(ctx, recorder);
  registerStateRoutes(ctx, engine);
  registerSystemRoutes(ctx, engine, {
    engineVersion: ENGINE_VERSION,
    engineName: deps.name,
    publicUrl: typeof deps.publicUrl === 'function' ? deps.publicUrl : () => deps.publicUrl as string,
    startedAtMs: Date.now(),
    onShutdownRequest: deps.onShutdownRequest,
  });
  router.get('/docs/openapi.json', (_req, res) => void res.json(api.toOpenApi()));
  const admin = express.Router();
  if (deps.adminApiKey) admin.use(requireAdminKey(deps.adminApiKey));
  admin.use(express.raw({ type: () => true, limit: deps.maxAdminBodyBytes ?? 50 * 1024 * 1024 }));
  admin.use(router);
  admin.use((req: Request, _res: Response, next: NextFunction) => next(AdminError.notFound(`No admin route ${req.method} /__admin${req.path}`)));
  admin.use(createAdminErrorHandler(deps.logger));
  app.use('/__admin', admin);
  finishApp(app);

  const serve = createServeHandler(engine, deps.logger, {
    proxyTimeoutMs: deps.proxyTimeoutMs ?? 30000,
    proxy: proxyConnections,
    maxRequestBodyBytes: deps.maxRequestBodyBytes ?? 50 * 1024 * 1024,
    systemValues: deps.systemValues ?? {},
  });
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (isAdminPath(req.url ?? '/')) app(req, res);
    else serve(req, res);
  };
  return {
    handler,
    engine,
    recorder,
    webhooks,
    stop: () => {
      webhooks.stop();
      proxyConnections.close();
    },
  };
}
