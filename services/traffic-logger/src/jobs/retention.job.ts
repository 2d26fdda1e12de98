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
}

/** Deletes exchanges older than maxAge (by start time), then all but the newest maxRows (by storage order). */
export async function runRetention(repo: Pick<ExchangeRepo, 'deleteStartedBefore' | 'deleteBeyondNewest'>, policy: RetentionPolicy, now = new Date()): Promise<RetentionOutcome> {
  const deletedByAge = policy.maxAgeMs > 0 ? await repo.deleteStartedBefore(new Date(now.getTime() - policy.maxAgeMs)) : 0;
  const deletedByRows = policy.maxRows > 0 ? await repo.deleteBeyondNewest(policy.maxRows) : 0;
  return { deletedByAge, deletedByRows };
}
