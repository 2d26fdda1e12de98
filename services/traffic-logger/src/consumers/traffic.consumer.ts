import type { TrafficBatchHandler, TrafficBatchOutcome, TrafficEntry } from '@mockyard/bus';
import type { Logger } from '@mockyard/service-kit';
import type { ExchangeRepo } from '../adapters/exchange.repo';
import { toNewExchange } from '../domain/to-new-exchange';
import type { NewExchange } from '../domain/stored-exchange';

export interface StoreTrafficDeps {
  repo: Pick<ExchangeRepo, 'insertMany'>;
  /** Resolves when the database answers; used to tell "database down" from "row rejected". */
  pingDatabase: () => Promise<unknown>;
  /** Called after each commit with the seqs of newly stored rows (redeliveries store nothing). */
  onStored: (seqs: number[]) => void;
  logger: Logger;
}

/**
 * The consumer's batch handler: one idempotent multi-row insert per batch. When the database is down
 * it throws (nothing is acked; the batch is retried). When the database is up but refuses the batch,
 * rows are stored one by one and only the ones it refuses are reported for the dead letters.
 */
export function createStoreTrafficBatch(deps: StoreTrafficDeps): TrafficBatchHandler {
  return async (entries): Promise<TrafficBatchOutcome> => {
    const rejected: NonNullable<TrafficBatchOutcome['rejected']> = [];
    const rows: { entry: TrafficEntry; row: NewExchange }[] = [];
    for (const entry of entries) {
      try {
        rows.push({ entry, row: toNewExchange(entry.event) });
      } catch (err) {
        rejected.push({ entry, reason: `cannot map event: ${(err as Error).message}` });
      }
    }
    try {
      deps.onStored(await deps.repo.insertMany(rows.map((r) => r.row)));
      return { rejected };
    } catch (err) {
      await deps.pingDatabase(); // throws while the database is unreachable: retry the batch later
      deps.logger.warn({ err: (err as Error).message, count: rows.length }, 'database refused a traffic batch; storing rows one by one');
    }
    const seqs: number[] = [];
    for (const { entry, row } of rows) {
      try {
        seqs.push(...(await deps.repo.insertMany([row])));
      } catch (err) {
        await deps.pingDatabase();
        rejected.push({ entry, reason: `database rejected the row: ${firstLine((err as Error).message)}` });
      }
    }
    deps.onStored(seqs);
    return { rejected };
  };
}

function firstLine(s: string): string {
  const lines = s.split('\n').map((l) => l.trim()).filter(Boolean);
  return (lines.at(-1) ?? s).slice(0, 500);
}
