import type { NextFunction, Request, Response, Router } from 'express';
import { exceedsJsonNestingDepth, isStubId, MAX_JSON_NESTING_DEPTH } from '@mockyard/matching';
import { HttpProblem, type ApiRegistry, type Logger } from '@mockyard/service-kit';
import { AdminError } from '../domain/admin-error';

export type AdminHandler = (req: Request, res: Response) => Promise<unknown> | unknown;

export interface AdminRouteContext {
  router: Router;
  api: ApiRegistry;
}

/**
 * Registers one `/__admin` route on the router and in the OpenAPI registry. The handler's return value is sent
 * as JSON with `status`; `undefined` sends an empty body.
 */
export function addAdminRoute(
  ctx: AdminRouteContext,
  method: 'get' | 'post' | 'put' | 'delete' | 'patch',
  path: string,
  summary: string,
  handler: AdminHandler,
  status = 200,
) {
  ctx.api.add({ method, path: `/__admin${path}`, summary, tags: ['WireMock admin'], responses: { [status]: { description: 'OK' } } });
  ctx.router[method](path, async (req: Request, res: Response, next: NextFunction) => {
    try {
      const result = await handler(req, res);
      if (res.headersSent) return;
      if (result === undefined) res.status(status).end();
      else res.status(status).json(result);
    } catch (err) {
      next(err);
    }
  });
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The request body as JSON (any content type, as WireMock accepts); 422 "Error parsing JSON" when it is not:
 * also for bytes that are not UTF-8 (Jackson refuses them; decoding leniently would store U+FFFD instead)
 * and for nesting deeper than Jackson's 1000 levels (which the recursive stub code could not handle).
 */
export function readJson(req: Request): unknown {
  const raw = req.body as Buffer | undefined;
  if (!raw || !Buffer.isBuffer(raw) || raw.length === 0) return undefined;
  let text: string;
  try {
    text = strictUtf8.decode(raw);
  } catch {
    throw jsonError('the body is not valid UTF-8');
  }
  if (exceedsJsonNestingDepth(text)) throw jsonError(`the document nests deeper than the maximum allowed (${MAX_JSON_NESTING_DEPTH})`);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw jsonError((err as Error).message);
  }
}

function jsonError(detail: string): AdminError {
  return new AdminError(422, [{ code: 10, source: { pointer: '/' }, title: 'Error parsing JSON', detail }]);
}

/**
 * An id from the path (a stub's, a serve event's): ids are UUIDs, and WireMock answers anything else 400
 * (code 10), not 404. Lower-cased, as stored ids are: WireMock parses it with UUID.fromString, which takes any case.
 */
export function uuidParam(param: unknown): string {
  const id = String(param);
  if (!isStubId(id)) throw AdminError.badRequest(`${id} is not a valid UUID`, 10);
  return id.toLowerCase();
}

export function readInt(value: unknown, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw AdminError.badRequest(`${name} must be a non-negative integer`);
  return n;
}

/** Error handler of the admin router: WireMock's `{errors:[…]}` body; unexpected errors are 500 and logged. */
export function createAdminErrorHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    let error: AdminError;
    if (err instanceof AdminError) error = err;
    else if ((err as { type?: string }).type === 'entity.too.large') error = new AdminError(413, [{ code: 413, title: 'Request body too large' }]);
    // the service kit's refusals (a query over its parameter bound) in WireMock's shape
    else if (err instanceof HttpProblem && err.status < 500) error = new AdminError(err.status, [{ code: err.status, title: err.detail }]);
    else {
      logger.error({ err, path: req.path }, 'admin request failed');
      error = new AdminError(500, [{ code: 500, title: 'Unexpected engine error; see the engine log' }]);
    }
    if (res.headersSent) return void res.destroy();
    res.status(error.status).json(error.toJson());
  };
}
