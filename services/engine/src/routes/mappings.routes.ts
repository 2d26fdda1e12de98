import { isStubId } from '@mockyard/matching';
import { AdminError } from '../domain/admin-error';
import type { MockEngine } from '../domain/mock-engine';
import { addAdminRoute, readInt, readJson, uuidParam, type AdminRouteContext } from './admin-route';

/** WireMock's `/__admin/mappings` family. */
export function registerMappingRoutes(ctx: AdminRouteContext, engine: MockEngine) {
  addAdminRoute(ctx, 'get', '/mappings', 'List stub mappings (limit, offset)', (req) => {
    const limit = readInt(req.query.limit, 'limit');
    const offset = readInt(req.query.offset, 'offset') ?? 0;
    const all = engine.allStubs();
    const page = all.slice(offset, limit === undefined ? undefined : offset + limit);
    return { mappings: page, meta: { total: all.length } };
  });
  addAdminRoute(ctx, 'post', '/mappings', 'Create a stub mapping', (req) => engine.createStub(readJson(req)), 201);
  addAdminRoute(ctx, 'post', '/mappings/new', 'Create a stub mapping (deprecated path)', (req) => engine.createStub(readJson(req)), 201);
  addAdminRoute(ctx, 'delete', '/mappings', 'Delete every stub mapping', async () => {
    await engine.removeAllStubs();
  });
  // WireMock's resetToDefaultMappings: also resets every scenario and clears the request journal
  addAdminRoute(ctx, 'post', '/mappings/reset', 'Reset stubs to disk, clear the journal, reset scenarios', async () => {
    await engine.resetToDefaultMappings();
  });
  addAdminRoute(ctx, 'post', '/mappings/save', 'Save all stub mappings to the mappings folder', async () => {
    await engine.saveAll();
  });
  addAdminRoute(ctx, 'post', '/mappings/import', 'Import stub mappings (duplicatePolicy, deleteAllNotInImport)', async (req) => {
    await engine.importStubs(readJson(req));
  });
  addAdminRoute(ctx, 'post', '/mappings/find-by-metadata', 'Find stub mappings by metadata', (req) => {
    const mappings = engine.findByMetadata(readJson(req));
    return { mappings, meta: { total: mappings.length } };
  });
  addAdminRoute(ctx, 'post', '/mappings/remove-by-metadata', 'Remove stub mappings by metadata', async (req) => {
    await engine.removeByMetadata(readJson(req));
    return {};
  });
  // As WireMock 3.13.2: removing what is not there succeeds (200), by id or by request.
  addAdminRoute(ctx, 'post', '/mappings/remove', 'Remove a stub mapping by id or identical request (deprecated path)', async (req) => {
    const body = readJson(req) as { id?: unknown; uuid?: unknown; request?: unknown } | undefined;
    const id = bodyStubIdOf(body) ?? engine.allStubs().find((s) => JSON.stringify(s.request) === JSON.stringify(body?.request))?.id;
    if (id && engine.stubs.get(id)) await engine.removeStub(id);
  });
  addAdminRoute(ctx, 'post', '/mappings/edit', 'Replace a stub mapping by the id in its body (deprecated path)', (req) => {
    const body = readJson(req) as { id?: unknown; uuid?: unknown } | undefined;
    const id = bodyStubIdOf(body);
    if (!id) throw AdminError.invalidEntity([{ path: '/id', message: 'id is required' }]);
    return engine.updateStub(id, body);
  });
  addAdminRoute(ctx, 'get', '/mappings/:id', 'Get one stub mapping', (req) => engine.getStub(uuidParam(req.params.id)));
  addAdminRoute(ctx, 'put', '/mappings/:id', 'Replace one stub mapping', (req) => engine.updateStub(uuidParam(req.params.id), readJson(req)));
  addAdminRoute(ctx, 'delete', '/mappings/:id', 'Delete one stub mapping', async (req) => {
    await engine.removeStub(uuidParam(req.params.id));
  });
}

/**
 * The `id` (or `uuid`) of a deprecated remove/edit body, lower-cased like stored ids; undefined when it has none.
 * WireMock reads these bodies as stub mappings, so an id that is not a UUID is a 422 like any bad stub field.
 */
function bodyStubIdOf(body: { id?: unknown; uuid?: unknown } | undefined): string | undefined {
  const key = body?.id !== undefined && body.id !== null ? 'id' : 'uuid';
  const id = body?.[key];
  if (id === undefined || id === null) return undefined;
  if (typeof id !== 'string' || !isStubId(id)) throw AdminError.invalidEntity([{ path: `/${key}`, message: `${key} must be a UUID` }]);
  return id.toLowerCase();
}
