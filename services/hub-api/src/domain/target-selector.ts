import { LOCAL_SERVER_ID } from '@mockyard/contracts';
import { InvalidInputError } from './hub-errors';

export const TARGET_HEADER = 'X-Hub-Target-Server';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type TargetSelector = { kind: 'active' } | { kind: 'local' } | { kind: 'server'; id: string };

/** A UUID in any case: what registered servers' ids and (as WireMock takes them) stub ids are. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * Reads a target (the X-Hub-Target-Server header or an MCP tool's `targetServer`): absent/empty means
 * the active engine, `local` the embedded engine, a UUID a registered server; anything else is
 * malformed, never a silent fallback to the active engine.
 */
export function parseTargetSelector(value: string | undefined | null, source = TARGET_HEADER): TargetSelector {
  if (value === undefined || value === null) return { kind: 'active' };
  const v = value.trim();
  if (v === '') throw new InvalidInputError(`${source} is empty: give "local" or a registered server id (UUID), or leave it out to use the active engine`);
  if (v.toLowerCase() === LOCAL_SERVER_ID) return { kind: 'local' };
  if (isUuid(v)) return { kind: 'server', id: v.toLowerCase() };
  throw new InvalidInputError(`${source} "${v.slice(0, 80)}" is malformed: give "local" or a registered server id (UUID)`);
}
