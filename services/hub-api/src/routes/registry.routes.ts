import { Router } from 'express';
import { z } from 'zod';
import { AddServerSchema, ManagedServerSchema, ProblemSchema, SetActiveServerSchema, UpdateServerSchema } from '@mockyard/contracts';
import { parseInput, type ApiRegistry } from '@mockyard/service-kit';
import type { HubContext } from '../hub-context';
import { IdParams } from './engine-target';

const tags = ['registry'];
const problem = (description: string) => ({ description, schema: ProblemSchema });

/** /hub/admin/registry: the engines the hub manages and which one is active. */
export function registryRoutes(hub: HubContext, api: ApiRegistry): Router {
  const r = Router();
  const base = '/hub/admin/registry';

  api.add({ method: 'get', path: `${base}/servers`, tags, summary: 'List the local engine and every registered server (a JSON array)', responses: { 200: { description: 'servers, local first', schema: z.array(ManagedServerSchema) } } });
  r.get('/servers', async (_req, res) => {
    res.json(await hub.registry.listServers());
  });

  api.add({
    method: 'post', path: `${base}/servers`, tags, summary: 'Register a server (idempotent by URL)', body: AddServerSchema,
    responses: { 201: { description: 'registered', schema: ManagedServerSchema }, 200: { description: 'the URL was already registered: the existing entry', schema: ManagedServerSchema }, 400: problem('missing name or invalid URL'), 409: problem('the URL is the local engine') },
  });
  r.post('/servers', async (req, res) => {
    const input = parseInput(AddServerSchema, req.body, 'body');
    const { server, created } = await hub.registry.addServer(input);
    if (created) req.log.info({ serverId: server.id, url: server.url }, 'server registered');
    res.status(created ? 201 : 200).location(`${req.baseUrl}/servers/${server.id}`).json(server);
  });

  api.add({ method: 'get', path: `${base}/servers/:id`, tags, summary: 'One server ("local" or a UUID)', params: IdParams, responses: { 200: { description: 'the server', schema: ManagedServerSchema }, 400: problem('malformed id'), 404: problem('unknown id') } });
  r.get('/servers/:id', async (req, res) => {
    res.json(await hub.registry.getServer(String(req.params.id)));
  });

  for (const method of ['put', 'patch'] as const) {
    api.add({
      method, path: `${base}/servers/:id`, tags, summary: 'Rename a server and/or change its URL', params: IdParams, body: UpdateServerSchema,
      responses: { 200: { description: 'updated', schema: ManagedServerSchema }, 400: problem('invalid input, or the local engine'), 404: problem('unknown id'), 409: problem('URL already registered') },
    });
    r[method]('/servers/:id', async (req, res) => {
      const input = parseInput(UpdateServerSchema, req.body, 'body');
      res.json(await hub.registry.updateServer(String(req.params.id), input));
    });
  }

  api.add({ method: 'delete', path: `${base}/servers/:id`, tags, summary: 'Unregister a server (the active one hands over to local)', params: IdParams, responses: { 204: { description: 'removed' }, 400: problem('malformed id or the local engine'), 404: problem('unknown id') } });
  r.delete('/servers/:id', async (req, res) => {
    await hub.registry.removeServer(String(req.params.id));
    req.log.info({ serverId: req.params.id }, 'server removed');
    res.status(204).end();
  });

  api.add({ method: 'get', path: `${base}/active`, tags, summary: 'The active engine', responses: { 200: { description: 'the active engine', schema: ManagedServerSchema } } });
  r.get('/active', async (_req, res) => {
    res.json(await hub.registry.getActive());
  });

  api.add({
    method: 'post', path: `${base}/active`, tags, summary: 'Make an engine active ("local" or a server id)', body: SetActiveServerSchema,
    responses: { 200: { description: 'the new active engine', schema: ManagedServerSchema }, 400: problem('missing or malformed id'), 404: problem('unknown id; the active engine is unchanged') },
  });
  r.post('/active', async (req, res) => {
    const { id } = parseInput(SetActiveServerSchema, req.body, 'body');
    const active = await hub.registry.setActive(id);
    req.log.info({ activeId: active.id }, 'active engine changed');
    res.json(active);
  });

  api.add({ method: 'post', path: `${base}/health-check`, tags, summary: 'Probe every engine now and return the refreshed list', responses: { 200: { description: 'servers with fresh health', schema: z.array(ManagedServerSchema) } } });
  r.post('/health-check', async (_req, res) => {
    await hub.probeAll();
    res.json(await hub.registry.listServers());
  });
  return r;
}
