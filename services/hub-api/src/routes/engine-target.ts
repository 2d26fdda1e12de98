import type { Request } from 'express';
import { z } from 'zod';
import type { EngineRef } from '../domain/engine-ref';
import { InvalidInputError } from '../domain/hub-errors';
import { isUuid, parseTargetSelector, TARGET_HEADER } from '../domain/target-selector';
import type { HubContext } from '../hub-context';

/** OpenAPI description of the targeting header every engine-facing route accepts. */
export const TargetHeaders = z.object({
  [TARGET_HEADER]: z.string().optional().describe('"local" or a registered server id (UUID): act on that engine for this call only, without changing the active engine'),
});

/** The engine this call acts on: the one named by X-Hub-Target-Server, else the active engine. */
export function engineFor(hub: HubContext, req: Request): Promise<EngineRef> {
  return hub.registry.resolve(parseTargetSelector(req.header(TARGET_HEADER)));
}

/** A stub id from a path, lower-cased: WireMock takes UUIDs in any case and engines store them in lower case. */
export function requireStubId(id: string): string {
  if (!isUuid(id)) throw new InvalidInputError(`stub id "${id.slice(0, 80)}" is not a UUID`);
  return id.toLowerCase();
}

export const IdParams = z.object({ id: z.string() });
