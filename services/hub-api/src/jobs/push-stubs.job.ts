import { UnrecoverableError } from 'bullmq';
import type { EngineOperations } from '../domain/engine-operations';
import { EngineRejectedError, InvalidInputError, NotFoundError } from '../domain/hub-errors';
import { findProxyStubs } from '../domain/proxy-stub';
import type { Registry } from '../domain/registry';
import { parseTargetSelector } from '../domain/target-selector';
import type { PushStubsJob } from './job-definitions';

/**
 * Pushes one fan-out's stubs to one engine with WireMock's import (OVERWRITE by id, so a retry is
 * idempotent). `replace` also deletes the engine's other stubs, except its engine-proxy stub.
 * Unknown engines and the engine's own 4xx are final; network failures are retried by BullMQ.
 */
export async function pushStubs(deps: { registry: Registry; operations: EngineOperations }, job: PushStubsJob): Promise<{ engineId: string; imported: number; mode: string }> {
  try {
    const engine = await deps.registry.resolve(parseTargetSelector(job.engineId, 'engineId'));
    const listed = job.mode === 'replace' ? (await deps.operations.listStubs(engine)).mappings : undefined;
    const keep = listed ? findProxyStubs(listed) : [];
    const { imported } = await deps.operations.importStubs(
      engine,
      { mappings: [...job.mappings, ...keep], importOptions: { duplicatePolicy: 'OVERWRITE', deleteAllNotInImport: job.mode === 'replace' } },
      listed, // the engine's stubs, listed just now: no second listing to count what the import removed
    );
    return { engineId: engine.id, imported: imported - keep.length, mode: job.mode };
  } catch (err) {
    if (err instanceof EngineRejectedError || err instanceof NotFoundError || err instanceof InvalidInputError) throw new UnrecoverableError(err.message);
    throw err;
  }
}
