import type { EngineRef } from './engine-ref';

export type EngineMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface EngineCall {
  method: EngineMethod;
  /** Path under the engine's `/__admin`, e.g. `/mappings`. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
}

export interface EngineReply {
  status: number;
  body: unknown;
}

export interface EngineProbe {
  isUp: boolean;
  stubCount: number | null;
  responseTimeMs: number;
  error: string | null;
}

/**
 * Port to an engine's WireMock admin API. `call` resolves 2xx replies, throws EngineRejectedError for
 * 4xx and the other engine errors (hub-errors.ts) for everything else. `probe` never throws.
 */
export interface EngineAdmin {
  call(engine: EngineRef, call: EngineCall): Promise<EngineReply>;
  probe(engine: EngineRef, timeoutMs: number): Promise<EngineProbe>;
  /** Drops the client (and breaker) of an engine that was removed or moved. */
  forget(engineId: string): void;
}
