import type { CompiledRequestPattern } from './compile-request-pattern';
import type { MatchableRequest } from './matchable-request';
import type { MatchResult } from './match-request-pattern';
import { matchRequestPattern } from './match-request-pattern';
import type { StubMapping } from './stub-mapping';

export interface NearMiss {
  stubMapping: StubMapping;
  matchResult: MatchResult;
}

/** Orders near misses: smaller distance first (stable for equal distances). */
export function compareNearMisses(a: NearMiss, b: NearMiss): number {
  return a.matchResult.distance - b.matchResult.distance;
}

/**
 * The stubs closest to a request that none matched, closest first (WireMock returns at most 3).
 * `compiledFor` lets the engine hand over its precompiled patterns; otherwise stubs compile on demand.
 * Stubs whose pattern does not compile are skipped.
 */
export function findNearMisses(
  stubs: Iterable<StubMapping>,
  request: MatchableRequest,
  max = 3,
  compiledFor?: (stub: StubMapping) => CompiledRequestPattern | undefined,
): NearMiss[] {
  const misses: NearMiss[] = [];
  for (const stub of stubs) {
    let matchResult: MatchResult;
    try {
      matchResult = matchRequestPattern(compiledFor?.(stub) ?? stub.request, request);
    } catch {
      continue;
    }
    misses.push({ stubMapping: stub, matchResult });
  }
  misses.sort(compareNearMisses);
  return misses.slice(0, Math.max(0, max));
}
