import type { EngineRef } from './engine-ref';

/**
 * Expected failures of the hub's domain. Routes map them to problem+json (see
 * routes/to-http-problem.ts), MCP tools to tool errors; neither layer needs to know the other.
 */
export abstract class HubError extends Error {
  abstract readonly kind: 'invalid' | 'notFound' | 'conflict' | 'engineRejected' | 'engineUnreachable' | 'engineTimeout' | 'engineUnavailable' | 'engineFailed' | 'dependency';
}

export class InvalidInputError extends HubError {
  readonly kind = 'invalid';
  constructor(message: string) {
    super(message);
    this.name = 'InvalidInputError';
  }
}

export class NotFoundError extends HubError {
  readonly kind = 'notFound';
  constructor(message: string) {
    super(message);
    this.name = 'NotFoundError';
  }
}

export class ConflictError extends HubError {
  readonly kind = 'conflict';
  constructor(message: string) {
    super(message);
    this.name = 'ConflictError';
  }
}

/** The engine answered 4xx: its own verdict, passed through with its status and message. */
export class EngineRejectedError extends HubError {
  readonly kind = 'engineRejected';
  constructor(
    readonly engine: EngineRef,
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'EngineRejectedError';
  }
}

/** Connection refused/reset, DNS, TLS: the engine could not be reached (502). */
export class EngineUnreachableError extends HubError {
  readonly kind = 'engineUnreachable';
  constructor(
    readonly engine: EngineRef,
    message: string,
  ) {
    super(message);
    this.name = 'EngineUnreachableError';
  }
}

/** The engine did not answer within the configured timeout (504). */
export class EngineTimeoutError extends HubError {
  readonly kind = 'engineTimeout';
  constructor(
    readonly engine: EngineRef,
    readonly timeoutMs: number,
  ) {
    super(`engine ${engine.id} (${engine.url}) did not answer within ${timeoutMs} ms`);
    this.name = 'EngineTimeoutError';
  }
}

/** The engine's circuit breaker is open: calls fail fast until it half-opens (503 + Retry-After). */
export class EngineUnavailableError extends HubError {
  readonly kind = 'engineUnavailable';
  constructor(
    readonly engine: EngineRef,
    readonly retryAfterSeconds: number,
  ) {
    super(`engine ${engine.id} (${engine.url}) is failing; its circuit breaker is open, retry in ${retryAfterSeconds} s`);
    this.name = 'EngineUnavailableError';
  }
}

/** The engine answered 5xx or with a body the hub cannot read (502). */
export class EngineFailedError extends HubError {
  readonly kind = 'engineFailed';
  constructor(
    readonly engine: EngineRef,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'EngineFailedError';
  }
}

/** A service the hub depends on (the traffic logger) failed. */
export class DependencyError extends HubError {
  readonly kind = 'dependency';
  constructor(
    readonly dependency: string,
    message: string,
  ) {
    super(message);
    this.name = 'DependencyError';
  }
}

export function isEngineError(err: unknown): err is EngineRejectedError | EngineUnreachableError | EngineTimeoutError | EngineUnavailableError | EngineFailedError {
  return err instanceof EngineRejectedError || err instanceof EngineUnreachableError || err instanceof EngineTimeoutError || err instanceof EngineUnavailableError || err instanceof EngineFailedError;
}
