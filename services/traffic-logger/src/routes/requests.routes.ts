import { Router } from 'express';
import { z } from 'zod';
import { ExchangeSummarySchema, LoggedExchangeSchema, LoggedRequestSchema, LoggedResponseSchema, pageSchema, ProblemSchema } from '@mockyard/contracts';
import { parseInput, type ApiRegistry } from '@mockyard/service-kit';
import type { ExchangeRepo } from '../adapters/exchange.repo';
import { toExchangeSummary, toLoggedExchange, toLoggedRequest, toLoggedResponse } from '../domain/exchange-views';
import { ExchangesQuerySchema, RequestsQuerySchema, toExchangeFilter } from './exchange-query';
import { findPage } from './find-page';

export interface ReadRoutesDeps {
  repo: ExchangeRepo;
  count: { exactLimit: number; timeoutMs: number };
}

const TOTALS_NOTE =
  'Newest first (start time, then storage order). totalElements is exact up to traffic.read.count-exact-limit matches (when counting takes under traffic.read.count-timeout-ms), else the PostgreSQL planner estimate (totalElementsExact=false); `last` is always exact.';

/** GET /api/requests, GET /api/responses (the spec's read API) and GET /api/exchanges (both sides). */
export function createRequestsRoutes(deps: ReadRoutesDeps, api: ApiRegistry): Router {
  const router = Router();
  const bad = { description: 'invalid query parameter (each one named in `errors`)', schema: ProblemSchema };

  api.add({
    method: 'get',
    path: '/api/requests',
    summary: 'Logged requests, paged and filtered',
    description: `${TOTALS_NOTE} \`status\` filters by the status of the request's response.`,
    tags: ['traffic'],
    query: RequestsQuerySchema,
    responses: { 200: { description: 'a page of logged requests', schema: pageSchema(LoggedRequestSchema) }, 400: bad },
  });
  router.get('/api/requests', async (req, res) => {
    const q = parseInput(RequestsQuerySchema, req.query, 'query');
    res.json(await findPage(deps.repo, toExchangeFilter(q), q.page, q.size, deps.count, toLoggedRequest));
  });

  api.add({
    method: 'get',
    path: '/api/responses',
    summary: 'Logged responses, paged and filtered',
    description: `${TOTALS_NOTE} Exchanges that got no response (see /api/exchanges) are not listed.`,
    tags: ['traffic'],
    query: RequestsQuerySchema,
    responses: { 200: { description: 'a page of logged responses', schema: pageSchema(LoggedResponseSchema) }, 400: bad },
  });
  router.get('/api/responses', async (req, res) => {
    const q = parseInput(RequestsQuerySchema, req.query, 'query');
    const filter = { ...toExchangeFilter(q), hasResponse: true };
    res.json(await findPage(deps.repo, filter, q.page, q.size, deps.count, toLoggedResponse));
  });

  api.add({
    method: 'get',
    path: '/api/exchanges',
    summary: 'Logged exchanges (request and response together), paged and filtered',
    description: `${TOTALS_NOTE} With view=summary each item is an ExchangeSummary (the live feed's shape: sizes, no headers or bodies), which the database serves without reading headers and bodies.`,
    tags: ['traffic'],
    query: ExchangesQuerySchema,
    responses: { 200: { description: 'a page of exchanges (view=full) or of summaries (view=summary)', schema: z.union([pageSchema(LoggedExchangeSchema), pageSchema(ExchangeSummarySchema)]) }, 400: bad },
  });
  router.get('/api/exchanges', async (req, res) => {
    const q = parseInput(ExchangesQuerySchema, req.query, 'query');
    const filter = toExchangeFilter(q);
    res.json(
      q.view === 'summary'
        ? await findPage(deps.repo, filter, q.page, q.size, deps.count, toExchangeSummary, 'summary')
        : await findPage(deps.repo, filter, q.page, q.size, deps.count, toLoggedExchange),
    );
  });

  return router;
}
