import { Router } from 'express';
import { z } from 'zod';
import { ExchangeSummarySchema, ProblemSchema } from '@mockyard/contracts';
import { parseInput, type ApiRegistry } from '@mockyard/service-kit';
import type { LiveFeeds } from '../live/live-feeds';
import { FilterQuerySchema, toExchangeFilter } from './exchange-query';

const seqText = (name: string) =>
  z
    .preprocess((v) => (v === '' ? undefined : v), z.string().optional())
    .refine((v) => v === undefined || /^\d{1,15}$/.test(v), `${name} must be the id of an event received earlier (a non-negative integer)`)
    .transform((v) => (v === undefined ? undefined : Number(v)));

const StreamQuerySchema = FilterQuerySchema.extend({
  lastEventId: seqText('lastEventId').describe('resume after this event id (for clients that cannot send the Last-Event-ID header)'),
});
const StreamHeadersSchema = z.object({ 'last-event-id': seqText('Last-Event-ID').describe('resume after this event id (EventSource sends it on reconnect)') });

/** GET /api/stream: the live feed (Server-Sent Events) with the read API's filters. */
export function createStreamRoutes(deps: { feeds: LiveFeeds }, api: ApiRegistry): Router {
  const router = Router();
  api.add({
    method: 'get',
    path: '/api/stream',
    summary: 'Live feed of stored exchanges (Server-Sent Events), filtered, resumable with Last-Event-ID',
    description:
      'Events: `exchange` (id = seq, data = ExchangeSummary), `ready` once caught up (data {liveFromSeq}), `overflow` when a resume had more to replay than traffic.stream.replay-limit (data {skippedAfterSeq, resumedAtSeq}); comment heartbeats keep the connection open.',
    tags: ['traffic'],
    query: StreamQuerySchema,
    headers: StreamHeadersSchema,
    responses: {
      200: { description: 'text/event-stream of exchange summaries', schema: ExchangeSummarySchema, contentType: 'text/event-stream' },
      400: { description: 'invalid filter or event id', schema: ProblemSchema },
    },
  });
  router.get('/api/stream', async (req, res) => {
    const q = parseInput(StreamQuerySchema, req.query, 'query');
    const h = parseInput(StreamHeadersSchema, { 'last-event-id': req.header('last-event-id') }, 'headers');
    // HEAD (Express routes it here): the feed's headers, without opening a feed that would never end
    if (req.method === 'HEAD') {
      res.status(200).type('text/event-stream').setHeader('Cache-Control', 'no-cache');
      res.end();
      return;
    }
    await deps.feeds.serve({
      res,
      filter: toExchangeFilter(q),
      lastEventId: h['last-event-id'] ?? q.lastEventId,
      onClose: (listener) => res.on('close', listener),
    });
  });
  return router;
}
