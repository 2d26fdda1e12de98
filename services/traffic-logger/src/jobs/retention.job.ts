import { z } from 'zod';
import type { ExchangeRepo } from '../adapters/exchange.repo';

/** The retention job's definition (its handler is `runRetention`). */
export const retentionJob = {
  queue: 'traffic-retention',
  name: 'apply-retention',
  schedulerId: 'traffic-retention',
  dataSchema: z.object({}).loose(),
} as const;

export interface RetentionPolicy {
  /** 0: no age limit. */
  maxAgeMs: number;
  /** 0: no row limit. */
  maxRows: number;
}

export interface RetentionOutcome {
  deletedByAge: number;
  deletedByRows: number;
  /** Stopped between chunks because the logger was stopping. */
  interrupted?: boolean;
}

/**
 * Deletes exchanges older than maxAge (by start time), then all but the newest maxRows (by storage order), in
 * chunks; an aborted `signal` (the logger stopping) ends it between chunks, leaving the rest to the next run.
 */
export async function runRetention(repo: Pick<ExchangeRepo, 'deleteStartedBefore' | 'deleteBeyondNewest'>, policy: RetentionPolicy, now = new Date(), signal?: AbortSignal): Promise<RetentionOutcome> {
  const deletedByAge = policy.maxAgeMs > 0 ? await repo.deleteStartedBefore(new Date(now.getTime() - policy.maxAgeMs), undefined, signal) : 0;
  const deletedByRows = policy.maxRows > 0 && !signal?.aborted ? await repo.deleteBeyondNewest(policy.maxRows, undefined, signal) : 0;
  return { deletedByAge, deletedByRows, ...(signal?.aborted ? { interrupted: true } : {}) };
}
