import { Router } from 'express';
import { z } from 'zod';
import { ProblemSchema, StubMappingSchema } from '@mockyard/contracts';
import { parseInput, type ApiRegistry } from '@mockyard/service-kit';
import { summarizeEngine } from '../domain/engine-ref';
import type { HubContext } from '../hub-context';
import { engineFor, IdParams, requireStubId, TargetHeaders } from './engine-target';

const tags = ['stubs'];
const problem = (description: string) => ({ description, schema: ProblemSchema });
const engineErrors = {
  400: problem('malformed target header or invalid input'),
  404: problem('unknown target server, or the engine has no such item'),
  502: problem('the engine is unreachable or failed'),
  503: problem('the engine\'s circuit breaker is open (Retry-After)'),
  504: problem('the engine did not answer in time'),
};

const PageQuery = z.object({ limit: z.coerce.number().int().min(1).optional(), offset: z.coerce.number().int().min(0).optional() });
const JournalQuery = z.object({ limit: z.coerce.number().int().min(1).optional(), since: z.iso.datetime({ offset: true }).optional() });
const MappingsReply = z.object({ mappings: z.array(StubMappingSchema), meta: z.object({ total: z.number() }).optional() });
export const ImportStubsSchema = z.object({
  mappings: z.array(StubMappingSchema),
  importOptions: z.object({ duplicatePolicy: z.enum(['OVERWRITE', 'IGNORE']).optional(), deleteAllNotInImport: z.boolean().optional() }).optional(),
});

/** Stubs and the request journal of the active or targeted engine, in WireMock's shapes. */
export function mappingsRoutes(hub: HubContext, api: ApiRegistry): Router {
  const r = Router();
  const headers = TargetHeaders;

  api.add({ method: 'get', path: '/hub/admin/mappings', tags, headers, query: PageQuery, summary: 'All stubs of the engine ({mappings, meta})', responses: { 200: { description: 'stubs', schema: MappingsReply }, ...engineErrors } });
  r.get('/mappings', async (req, res) => {
    const page = parseInput(PageQuery, req.query, 'query');
    res.json(await hub.operations.listStubs(await engineFor(hub, req), page));
  });

  api.add({ method: 'post', path: '/hub/admin/mappings', tags, headers, body: StubMappingSchema, summary: 'Create a stub', responses: { 201: { description: 'the created stub', schema: StubMappingSchema }, 422: problem('the engine refused the stub'), ...engineErrors } });
  r.post('/mappings', async (req, res) => {
    const stub = parseInput(StubMappingSchema, req.body, 'body');
    const created = await hub.operations.createStub(await engineFor(hub, req), stub);
    res.status(201).json(created);
  });

  api.add({ method: 'delete', path: '/hub/admin/mappings', tags, headers, summary: 'Delete every stub of the engine', responses: { 204: { description: 'deleted' }, ...engineErrors } });
  r.delete('/mappings', async (req, res) => {
    await hub.operations.deleteAllStubs(await engineFor(hub, req));
    res.status(204).end();
  });

  api.add({ method: 'post', path: '/hub/admin/mappings/import', tags, headers, body: ImportStubsSchema, summary: 'Import many stubs (WireMock import options)', responses: { 200: { description: 'imported', schema: z.object({ imported: z.number() }) }, ...engineErrors } });
  r.post('/mappings/import', async (req, res) => {
    const input = parseInput(ImportStubsSchema, req.body, 'body');
    const engine = await engineFor(hub, req);
    res.json({ ...(await hub.operations.importStubs(engine, input)), engine: summarizeEngine(engine) });
  });

  api.add({ method: 'get', path: '/hub/admin/mappings/:id', tags, headers, params: IdParams, summary: 'One stub', responses: { 200: { description: 'the stub', schema: StubMappingSchema }, ...engineErrors } });
  r.get('/mappings/:id', async (req, res) => {
    const id = requireStubId(String(req.params.id));
    res.json(await hub.operations.getStub(await engineFor(hub, req), id));
  });

  api.add({ method: 'put', path: '/hub/admin/mappings/:id', tags, headers, params: IdParams, body: StubMappingSchema, summary: 'Replace a stub', responses: { 200: { description: 'the updated stub', schema: StubMappingSchema }, ...engineErrors } });
  r.put('/mappings/:id', async (req, res) => {
    const id = requireStubId(String(req.params.id));
    const stub = parseInput(StubMappingSchema, req.body, 'body');
    res.json(await hub.operations.updateStub(await engineFor(hub, req), id, stub));
  });

  api.add({ method: 'delete', path: '/hub/admin/mappings/:id', tags, headers, params: IdParams, summary: 'Delete a stub', responses: { 204: { description: 'deleted' }, ...engineErrors } });
  r.delete('/mappings/:id', async (req, res) => {
    const id = requireStubId(String(req.params.id));
    await hub.operations.deleteStub(await engineFor(hub, req), id);
    res.status(204).end();
  });

  const journal = ['journal'];
  api.add({ method: 'get', path: '/hub/admin/requests', tags: journal, headers, query: JournalQuery, summary: 'The engine\'s request journal ({requests, meta})', responses: { 200: { description: 'serve events' }, ...engineErrors } });
  r.get('/requests', async (req, res) => {
    const query = parseInput(JournalQuery, req.query, 'query');
    res.json(await hub.operations.listRequests(await engineFor(hub, req), query));
  });

  api.add({ method: 'delete', path: '/hub/admin/requests', tags: journal, headers, summary: 'Clear the request journal', responses: { 204: { description: 'cleared' }, ...engineErrors } });
  r.delete('/requests', async (req, res) => {
    await hub.operations.clearRequests(await engineFor(hub, req));
    res.status(204).end();
  });

  api.add({ method: 'get', path: '/hub/admin/requests/unmatched', tags: journal, headers, summary: 'Requests no stub matched ({requests})', responses: { 200: { description: 'unmatched requests' }, ...engineErrors } });
  r.get('/requests/unmatched', async (req, res) => {
    res.json(await hub.operations.listUnmatched(await engineFor(hub, req)));
  });

  api.add({ method: 'get', path: '/hub/admin/requests/unmatched/near-misses', tags: journal, headers, summary: 'Closest stubs for each unmatched request ({nearMisses})', responses: { 200: { description: 'near misses' }, ...engineErrors } });
  r.get('/requests/unmatched/near-misses', async (req, res) => {
    res.json(await hub.operations.listNearMisses(await engineFor(hub, req)));
  });
  return r;
}

export { engineErrors };
