import { z } from 'zod';
import { StubMappingSchema } from '@mockyard/contracts';

/**
 * The hub's BullMQ jobs, as data: queue, name, payload schema, attempts and backoff. Processors live
 * beside (probe-engines.job.ts, push-stubs.job.ts); adapters/hub-queues.ts wires both to BullMQ.
 */
export const FanoutModeSchema = z.enum(['import', 'replace']);
export type FanoutMode = z.infer<typeof FanoutModeSchema>;

export const PushStubsJobSchema = z.object({
  fanoutId: z.string(),
  engineId: z.string(),
  mode: FanoutModeSchema,
  mappings: z.array(StubMappingSchema),
});
export type PushStubsJob = z.infer<typeof PushStubsJobSchema>;

export const ProbeEnginesJobSchema = z.object({}).loose();

export const jobDefinitions = {
  probeEngines: {
    queue: 'hub-engine-health',
    name: 'probe-engines',
    schedulerId: 'probe-engines-every-interval',
    schema: ProbeEnginesJobSchema,
    attempts: 1,
  },
  pushStubs: {
    queue: 'hub-stub-sync',
    name: 'push-stubs',
    schema: PushStubsJobSchema,
    /** Defaults; hub.fanout.attempts / hub.fanout.backoff-ms override them. */
    attempts: 3,
    backoff: { type: 'exponential' as const, delay: 1000 },
    /** Finished jobs (and so a fan-out's results) are kept this long for polling. */
    keepSeconds: 24 * 3600,
  },
} as const;

/** BullMQ job ids may not contain ':'; one job per (fan-out, engine). */
export function pushStubsJobId(fanoutId: string, engineId: string): string {
  return `${fanoutId}_${engineId}`;
}
