import { Router } from 'express';
import { z } from 'zod';
import { EnableProxySchema, ProblemSchema, ProxyStatusSchema } from '@mockyard/contracts';
import { parseInput, type ApiRegistry } from '@mockyard/service-kit';
import type { HubContext } from '../hub-context';
import { engineFor, TargetHeaders } from './engine-target';
import { engineErrors } from './mappings.routes';

const tags = ['proxy'];

/** The engine-wide proxy of the active or targeted engine (a catch-all proxy stub; other stubs untouched). */
export function proxyRoutes(hub: HubContext, api: ApiRegistry): Router {
  const r = Router();
  const headers = TargetHeaders;
  const ok = { 200: { description: 'proxy status', schema: ProxyStatusSchema } };

  api.add({ method: 'get', path: '/hub/admin/proxy', tags, headers, summary: 'Proxy status: enabled, target URL, engine', responses: { ...ok, ...engineErrors } });
  r.get('/proxy', async (req, res) => {
    res.json(await hub.operations.getProxy(await engineFor(hub, req)));
  });

  api.add({ method: 'post', path: '/hub/admin/proxy/enable', tags, headers, body: EnableProxySchema, summary: 'Proxy unmatched requests to targetUrl (idempotent)', responses: { ...ok, ...engineErrors, 400: { description: 'targetUrl missing or not absolute, or malformed target header', schema: ProblemSchema } } });
  r.post('/proxy/enable', async (req, res) => {
    const { targetUrl } = parseInput(EnableProxySchema, req.body, 'body');
    const status = await hub.operations.enableProxy(await engineFor(hub, req), targetUrl);
    req.log.info({ engineId: status.engine.id, targetUrl }, 'engine proxy enabled');
    res.json(status);
  });

  api.add({ method: 'post', path: '/hub/admin/proxy/disable', tags, headers, body: z.object({}).optional(), summary: 'Stop proxying (idempotent)', responses: { ...ok, ...engineErrors } });
  r.post('/proxy/disable', async (req, res) => {
    const status = await hub.operations.disableProxy(await engineFor(hub, req));
    req.log.info({ engineId: status.engine.id }, 'engine proxy disabled');
    res.json(status);
  });
  return r;
}
