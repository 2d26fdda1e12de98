import { Router } from 'express';
import { z } from 'zod';
import { ProblemSchema, StubMappingSchema } from '@mockyard/contracts';
import { HttpProblem, parseInput, type ApiRegistry } from '@mockyard/service-kit';
import type { HubQueues } from '../adapters/hub-queues';
import type { EngineRef } from '../domain/engine-ref';
import { parseTargetSelector } from '../domain/target-selector';
import type { HubContext } from '../hub-context';
import { FanoutModeSchema } from '../jobs/job-definitions';
import { IdParams } from './engine-target';

const tags = ['fan-out'];

export const StartFanoutSchema = z
  .object({
    serverIds: z.array(z.string()).min(1, 'give at least one server id ("local" or a UUID)').optional(),
    all: z.boolean().optional(),
    mappings: z.array(StubMappingSchema),
    mode: FanoutModeSchema.default('import'),
  })
  .refine((v) => (v.all === true) !== (v.serverIds !== undefined), 'give either serverIds or all: true');

/** Push one set of stubs to several engines at once: a BullMQ job per engine, results to poll. */
export function fanoutRoutes(hub: HubContext, api: ApiRegistry): Router {
  const r = Router();

  api.add({
    method: 'post', path: '/hub/admin/fanout', tags, body: StartFanoutSchema,
    summary: 'Push stubs to many engines (import merges by id; replace also removes their other stubs, keeping the engine proxy)',
    responses: { 202: { description: 'accepted; poll Location for per-engine results' }, 400: { description: 'invalid input', schema: ProblemSchema }, 404: { description: 'an unknown server id (nothing enqueued)', schema: ProblemSchema } },
  });
  r.post('/fanout', async (req, res) => {
    const queues = fanoutQueues(hub);
    const input = parseInput(StartFanoutSchema, req.body, 'body');
    let engines: EngineRef[];
    if (input.all) engines = await hub.registry.listEngines();
    else {
      const resolved = await Promise.all(input.serverIds!.map((id) => hub.registry.resolve(parseTargetSelector(id, 'serverIds[]'))));
      // one job per engine, however its id was spelled (`local`, `LOCAL`, a UUID in either case)
      engines = [...new Map(resolved.map((e) => [e.id, e])).values()];
    }
    const status = await queues.startFanout({ engines, mappings: input.mappings, mode: input.mode });
    req.log.info({ fanoutId: status.id, engines: engines.length, stubs: input.mappings.length, mode: input.mode }, 'fan-out started');
    res.status(202).location(`/hub/admin/fanout/${status.id}`).json(status);
  });

  api.add({ method: 'get', path: '/hub/admin/fanout/:id', tags, params: IdParams, summary: 'A fan-out\'s per-engine state (waiting, active, retrying, completed, failed) and results', responses: { 200: { description: 'status' }, 404: { description: 'unknown or expired id', schema: ProblemSchema } } });
  r.get('/fanout/:id', async (req, res) => {
    const queues = fanoutQueues(hub);
    res.json(await queues.fanoutStatus(String(req.params.id)));
  });
  return r;
}

/**
 * The queues, or 503: fan-out lives in Redis, and while Redis is away its commands would wait (queued by the
 * client) until it returns, long after the caller gave up.
 */
function fanoutQueues(hub: HubContext): HubQueues {
  if (!hub.queues) throw HttpProblem.unavailable('fan-out needs Redis, which this hub process was started without');
  if (!hub.queues.isConnected) throw HttpProblem.unavailable('fan-out needs Redis, which is not reachable now; retry when /health/ready says it is UP', 5);
  return hub.queues;
}
