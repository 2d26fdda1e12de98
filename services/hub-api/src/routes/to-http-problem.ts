import { jsonPointerSegments, type Problem } from '@mockyard/contracts';
import { HttpProblem } from '@mockyard/service-kit';
import { summarizeEngine } from '../domain/engine-ref';
import { HubError } from '../domain/hub-errors';

/** Maps the domain's expected failures to problem+json; anything else is left to the kit's 500. */
export function toHttpProblem(err: unknown): unknown {
  if (!(err instanceof HubError)) return err;
  const engine = 'engine' in err ? { engine: summarizeEngine((err as { engine: Parameters<typeof summarizeEngine>[0] }).engine) } : {};
  switch (err.kind) {
    case 'invalid':
      return HttpProblem.badRequest(err.message);
    case 'notFound':
      return HttpProblem.notFound(err.message);
    case 'conflict':
      return new HttpProblem(409, 'conflict', err.message);
    case 'engineRejected': {
      const status = (err as unknown as { status: number }).status;
      const kind = status === 404 ? 'notFound' : status === 401 ? 'unauthorized' : status === 403 ? 'forbidden' : status === 409 ? 'conflict' : 'validation';
      const body = (err as unknown as { body: unknown }).body;
      const errors = engineErrors(body);
      return new HttpProblem(status, kind, err.message, { ...(errors ? { errors } : {}), ...engine, ...(body && typeof body === 'object' ? { engineResponse: body } : {}) });
    }
    case 'engineUnreachable':
    case 'engineFailed':
      return HttpProblem.badGateway(err.message, engine);
    case 'engineTimeout':
      return new HttpProblem(504, 'gatewayTimeout', err.message, engine);
    case 'engineUnavailable':
      return HttpProblem.unavailable(err.message, (err as unknown as { retryAfterSeconds: number }).retryAfterSeconds, engine);
    case 'dependency':
      return HttpProblem.badGateway(err.message);
  }
}

/** Express error middleware placed before the kit's handler. */
export function hubErrorMapper(err: unknown, _req: unknown, _res: unknown, next: (err: unknown) => void) {
  next(toHttpProblem(err));
}

/**
 * An engine's WireMock errors (`{"errors":[{source:{pointer}, title, detail}]}`) as the problem's `errors`,
 * each JSON pointer read as a path into the request body (`/request/headers/X` → `body.request.headers.X`),
 * as the hub names the fields its own validation refuses; undefined when the body has none.
 */
export function engineErrors(body: unknown): Problem['errors'] {
  const list = body && typeof body === 'object' ? (body as { errors?: unknown }).errors : undefined;
  if (!Array.isArray(list)) return undefined;
  const errors = list.flatMap((item) => {
    const { source, title, detail } = (item ?? {}) as { source?: { pointer?: unknown }; title?: unknown; detail?: unknown };
    const message = [detail, title].find((x): x is string => typeof x === 'string' && x !== '');
    if (!message) return [];
    const segments = jsonPointerSegments(typeof source?.pointer === 'string' ? source.pointer : '');
    return [{ path: ['body', ...segments].join('.'), message }];
  });
  return errors.length ? errors : undefined;
}
