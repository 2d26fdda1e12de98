import type { Request } from 'express';
import { AdminError } from '../domain/admin-error';
import { disableEngineProxy, enableEngineProxy, readEngineProxy } from '../domain/engine-proxy';
import type { MockEngine } from '../domain/mock-engine';
import { BodyFilePathError } from '../domain/ports';
import { addAdminRoute, readJson, type AdminRouteContext } from './admin-route';

/** WireMock API level this engine follows (reported by /__admin/version and /__admin/health). */
export const WIREMOCK_COMPATIBLE_VERSION = '3.13.2';

export interface SystemRouteOptions {
  engineVersion: string;
  engineName: string;
  publicUrl: () => string;
  startedAtMs: number;
  onShutdownRequest?: () => void;
}

function filePathOf(req: Request): string {
  const raw = (req.params as { path?: string | string[] }).path;
  const relative = Array.isArray(raw) ? raw.join('/') : String(raw ?? '');
  return relative;
}

async function withFilePath<T>(req: Request, run: (path: string) => Promise<T>): Promise<T> {
  const path = filePathOf(req);
  try {
    return await run(path);
  } catch (err) {
    if (err instanceof BodyFilePathError) throw AdminError.badRequest(err.message);
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'EISDIR') throw AdminError.notFound(`No body file ${path}`);
    throw err;
  }
}

/** Body files, health, version, reset, shutdown and the Mockyard engine-proxy endpoints. */
export function registerSystemRoutes(ctx: AdminRouteContext, engine: MockEngine, options: SystemRouteOptions) {
  addAdminRoute(ctx, 'get', '/files', 'List body files under __files', () => engine.files.list());
  addAdminRoute(ctx, 'get', '/files/*path', 'Read a body file', (req, res) =>
    withFilePath(req, async (path) => {
      const content = await engine.files.read(path);
      res.status(200).type('application/octet-stream').send(content);
    }),
  );
  addAdminRoute(ctx, 'put', '/files/*path', 'Write a body file (request body = content)', (req) =>
    withFilePath(req, async (path) => {
      await engine.files.write(path, Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
    }),
  );
  addAdminRoute(ctx, 'delete', '/files/*path', 'Delete a body file', (req) =>
    withFilePath(req, async (path) => {
      if (!(await engine.files.remove(path))) throw AdminError.notFound(`No body file ${path}`);
    }),
  );

  addAdminRoute(ctx, 'get', '/health', 'Engine health (WireMock 3.8+ shape)', () => ({
    status: 'healthy',
    message: 'Wiremock is ok',
    version: WIREMOCK_COMPATIBLE_VERSION,
    uptimeInSeconds: Math.floor((Date.now() - options.startedAtMs) / 1000),
    timestamp: new Date().toISOString(),
    engine: { name: options.engineName, version: options.engineVersion, stubs: engine.stubs.size, journalEntries: engine.journal.size },
  }));
  addAdminRoute(ctx, 'get', '/version', 'WireMock API version this engine follows', () => ({ version: WIREMOCK_COMPATIBLE_VERSION, mockyard: options.engineVersion }));
  addAdminRoute(ctx, 'post', '/reset', 'Reset stubs to disk, clear the journal, reset scenarios', () => engine.resetToDefaultMappings().then(() => undefined));
  if (options.onShutdownRequest) {
    const shutdown = options.onShutdownRequest;
    addAdminRoute(ctx, 'post', '/shutdown', 'Shut the engine down', () => void setImmediate(shutdown));
  }

  const proxyStatus = () => ({ ...readEngineProxy(engine), engine: { id: options.engineName, name: options.engineName, url: options.publicUrl() } });
  addAdminRoute(ctx, 'get', '/mockyard/proxy', 'Engine-wide proxy state', proxyStatus);
  addAdminRoute(ctx, 'post', '/mockyard/proxy', 'Enable (or retarget) the engine-wide proxy: {targetUrl}', async (req) => {
    await enableEngineProxy(engine, readJson(req));
    return proxyStatus();
  });
  addAdminRoute(ctx, 'delete', '/mockyard/proxy', 'Disable the engine-wide proxy (removes only its stub)', async () => {
    await disableEngineProxy(engine);
    return proxyStatus();
  });
}
