import { Router, type Response } from 'express';
import { z } from 'zod';
import { LoggedExchangeSchema, ProblemSchema } from '@mockyard/contracts';
import { HttpProblem, parseInput, waitForDrain, type ApiRegistry } from '@mockyard/service-kit';
import type { ExchangeRepo } from '../adapters/exchange.repo';
import { toLoggedExchange } from '../domain/exchange-views';
import { HAR_CREATOR, toHarEntry } from '../domain/to-har-entry';
import { FilterQuerySchema, toExchangeFilter } from './exchange-query';

export const HAR_DEFAULT_LIMIT = 1000;
export const HAR_MAX_LIMIT = 10_000;
const HAR_CHUNK = 200;

const IdParamsSchema = z.object({ id: z.uuid({ error: 'id must be an exchange id (a UUID)' }) });
const HarQuerySchema = FilterQuerySchema.extend({
  limit: z
    .preprocess((v) => (v === '' ? undefined : v), z.string().optional())
    .refine((v) => v === undefined || /^\d+$/.test(v), 'limit must be an integer')
    .transform((v) => (v === undefined ? HAR_DEFAULT_LIMIT : Number(v)))
    .refine((v) => v >= 1 && v <= HAR_MAX_LIMIT, `limit must be between 1 and ${HAR_MAX_LIMIT}`)
    .describe(`most entries exported, newest first (default ${HAR_DEFAULT_LIMIT}, max ${HAR_MAX_LIMIT})`),
});

/** One exchange by id, deleting the log, and the HAR export. */
export function createExchangesRoutes(deps: { repo: ExchangeRepo }, api: ApiRegistry): Router {
  const router = Router();
  const bad = { description: 'invalid parameter', schema: ProblemSchema };

  api.add({
    method: 'get',
    path: '/api/exchanges/har',
    summary: 'HAR 1.2 export of the exchanges matching the filters (newest first, streamed)',
    tags: ['traffic'],
    query: HarQuerySchema,
    responses: { 200: { description: 'a HAR 1.2 document (application/json, as a download)' }, 400: bad },
  });
  router.get('/api/exchanges/har', async (req, res) => {
    const q = parseInput(HarQuerySchema, req.query, 'query');
    await streamHar(res, deps.repo, toExchangeFilter(q), q.limit);
  });

  api.add({
    method: 'get',
    path: '/api/exchanges/:id',
    summary: 'One exchange: request and response together',
    tags: ['traffic'],
    params: IdParamsSchema,
    responses: { 200: { description: 'the exchange', schema: LoggedExchangeSchema }, 400: bad, 404: { description: 'no exchange with that id', schema: ProblemSchema } },
  });
  router.get('/api/exchanges/:id', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'params');
    const found = await deps.repo.findById(id);
    if (!found) throw HttpProblem.notFound(`No exchange with id ${id}`);
    res.json(toLoggedExchange(found));
  });

  api.add({
    method: 'delete',
    path: '/api/exchanges/:id',
    summary: 'Delete one exchange',
    tags: ['traffic'],
    params: IdParamsSchema,
    responses: { 204: { description: 'deleted' }, 400: bad, 404: { description: 'no exchange with that id', schema: ProblemSchema } },
  });
  router.delete('/api/exchanges/:id', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'params');
    if (!(await deps.repo.deleteById(id))) throw HttpProblem.notFound(`No exchange with id ${id}`);
    res.status(204).end();
  });

  api.add({
    method: 'delete',
    path: '/api/exchanges',
    summary: 'Delete the logged exchanges matching the filters (all of them without filters)',
    tags: ['traffic'],
    query: FilterQuerySchema,
    responses: { 200: { description: 'how many were deleted', schema: z.object({ deleted: z.number().int() }) }, 400: bad },
  });
  router.delete('/api/exchanges', async (req, res) => {
    const q = parseInput(FilterQuerySchema, req.query, 'query');
    const deleted = await deps.repo.deleteMatching(toExchangeFilter(q));
    req.log.info({ deleted, filter: q }, 'traffic log entries deleted');
    res.json({ deleted });
  });

  return router;
}

/** Writes the HAR document as it walks the filtered set by keyset pages, respecting back-pressure. */
async function streamHar(res: Response, repo: ExchangeRepo, filter: ReturnType<typeof toExchangeFilter>, limit: number): Promise<void> {
  let rows = await repo.listBefore(filter, undefined, Math.min(HAR_CHUNK, limit));
  res.status(200);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Disposition', 'attachment; filename="mockyard-traffic.har"');
  res.write(`{"log":{"version":"1.2","creator":${JSON.stringify(HAR_CREATOR)},"pages":[],"entries":[`);
  let written = 0;
  while (rows.length > 0 && !res.destroyed) {
    const chunk = rows.map((r) => JSON.stringify(toHarEntry(r))).join(',');
    const ok = res.write(`${written > 0 ? ',' : ''}${chunk}`);
    written += rows.length;
    if (written >= limit || rows.length < HAR_CHUNK) break;
    if (!ok) await waitForDrain(res);
    const last = rows[rows.length - 1];
    rows = await repo.listBefore(filter, { startedAt: last.startedAt, seq: last.seq }, Math.min(HAR_CHUNK, limit - written));
  }
  res.end(']}}');
}
