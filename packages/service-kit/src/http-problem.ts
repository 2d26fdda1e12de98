import { problemTypes, type Problem } from '@mockyard/contracts';

export type ProblemKind = keyof typeof problemTypes;

const TITLES: Record<ProblemKind, string> = {
  validation: 'Invalid request',
  notFound: 'Not found',
  conflict: 'Conflict',
  unauthorized: 'Unauthorized',
  payloadTooLarge: 'Payload too large',
  unsupportedMediaType: 'Unsupported media type',
  badGateway: 'Bad gateway',
  gatewayTimeout: 'Gateway timeout',
  unavailable: 'Service unavailable',
  forbidden: 'Forbidden',
  internal: 'Internal server error',
  notImplemented: 'Not implemented',
  requestTimeout: 'Request timeout',
};

/** An expected failure that maps to an RFC 9457 problem response. Throw it from routes. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly kind: ProblemKind,
    readonly detail: string,
    readonly extra: { errors?: Problem['errors']; headers?: Record<string, string>; [k: string]: unknown } = {},
  ) {
    super(detail);
    this.name = 'HttpProblem';
  }

  toProblem(instance?: string, requestId?: string): Problem & Record<string, unknown> {
    const { headers: _headers, ...rest } = this.extra;
    return { type: problemTypes[this.kind], title: TITLES[this.kind], status: this.status, detail: this.detail, instance, requestId, ...rest };
  }

  static badRequest(detail: string, errors?: Problem['errors']) {
    return new HttpProblem(400, 'validation', detail, errors ? { errors } : {});
  }
  static notFound(detail: string) {
    return new HttpProblem(404, 'notFound', detail);
  }
  static badGateway(detail: string, extra: Record<string, unknown> = {}) {
    return new HttpProblem(502, 'badGateway', detail, extra);
  }
  static unavailable(detail: string, retryAfterSeconds?: number, extra: Record<string, unknown> = {}) {
    return new HttpProblem(503, 'unavailable', detail, {
      ...extra,
      ...(retryAfterSeconds !== undefined ? { headers: { 'Retry-After': String(retryAfterSeconds) } } : {}),
    });
  }
}
