import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import qs from 'qs';
import type { Logger } from 'pino';
import { createAllowedHosts, refusedHostProblem } from './host-guard';
import { HttpProblem } from './http-problem';
import type { ApiRegistry } from './api-registry';
import { verifyJsonBody } from './verify-json-body';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    log: Logger;
  }
}

/** A named readiness check: resolves when the dependency answers, rejects (or times out) otherwise. */
export type ReadinessCheck = () => Promise<unknown>;

export interface ServiceAppOptions {
  service: string;
  logger: Logger;
  readiness?: Record<string, ReadinessCheck>;
  /** Counters reported beside the readiness checks in /health/ready (e.g. the logger's consumer counters). */
  readinessDetails?: () => Record<string, unknown>;
  /** Body limit for JSON and urlencoded bodies parsed by the kit. */
  jsonLimit?: string;
  /** Skip body parsing on these path prefixes (streaming routes). */
  rawPaths?: string[];
  api?: ApiRegistry;
  readinessTimeoutMs?: number;
  /**
   * `server.allowed-hosts` entries: a request naming another host in `Host` is a 403 before any route runs
   * (DNS rebinding defence, see AllowedHosts). Default: none beyond IP addresses, localhost and names
   * without a dot. `['*']` turns the check off.
   */
  allowedHosts?: readonly string[];
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function isJsonType(req: IncomingMessage): boolean {
  const type = req.headers['content-type']?.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || (type !== undefined && /^application\/[\w.+-]*\+json$/.test(type));
}

/**
 * Writes carry JSON or nothing, and never come from another site's page. A form or a text/plain body needs
 * no CORS preflight, so any web page could have sent one to a service on localhost (that is how it changed
 * the hub's state without a key): such a body is a 415, and a browser's cross-site write (its
 * `Sec-Fetch-Site: cross-site`) a 403. Clients that are not browsers send neither.
 */
function refuseUnsafeWrites(req: Request, next: NextFunction): void {
  if (!WRITE_METHODS.has(req.method)) return next();
  if (req.get('sec-fetch-site') === 'cross-site') return next(new HttpProblem(403, 'forbidden', 'Cross-site requests may not change anything here (Sec-Fetch-Site: cross-site)'));
  const type = req.get('content-type');
  const hasBody = type !== undefined || req.get('transfer-encoding') !== undefined || Number(req.get('content-length') ?? 0) > 0;
  if (hasBody && !isJsonType(req)) return next(new HttpProblem(415, 'unsupportedMediaType', `Content-Type must be application/json${type ? `, not ${type}` : ' for a request with a body'}`));
  next();
}

/** Query parameters one request may carry (qs's default bound, against hash-flooding). */
export const MAX_QUERY_PARAMETERS = 1000;

/**
 * Express's "extended" query parser, except that a query over MAX_QUERY_PARAMETERS is refused with 400
 * instead of cut silently: a filter dropped past the bound would widen what a query reads or deletes.
 */
function parseQueryString(query: string | null | undefined): qs.ParsedQs {
  if (!query) return {};
  // counted as qs counts them (the parts between '&'), without splitting first
  let parts = 1;
  for (let at = query.indexOf('&'); at !== -1 && parts <= MAX_QUERY_PARAMETERS; at = query.indexOf('&', at + 1)) parts++;
  if (parts > MAX_QUERY_PARAMETERS) throw HttpProblem.badRequest(`the query has more than ${MAX_QUERY_PARAMETERS} parameters`);
  return qs.parse(query, { allowPrototypes: true, parameterLimit: MAX_QUERY_PARAMETERS });
}

/**
 * The express app every service starts from: the Host check (`allowedHosts`), request ids, access logs,
 * JSON parsing with limits, `/health/live`, `/health/ready` and `/openapi.json`. Add routes, then call `finishApp`.
 */
export function createServiceApp(options: ServiceAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', parseQueryString);
  app.locals.service = options.service;

  const allowedHosts = createAllowedHosts(options.allowedHosts ?? []);
  app.use((req: Request, res: Response, next: NextFunction) => {
    const incoming = req.header('x-request-id');
    req.id = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.log = options.logger.child({ requestId: req.id });
    res.setHeader('X-Request-Id', req.id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      if (req.path.startsWith('/health/')) return;
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      req.log.info({ method: req.method, path: req.path, status: res.statusCode, durationMs: Math.round(durationMs * 10) / 10 }, 'request completed');
    });
    const host = req.headers.host;
    next(allowedHosts.allows(host) ? undefined : refusedHostProblem(host!));
  });

  const limit = options.jsonLimit ?? '1mb';
  const json = express.json({ limit, type: isJsonType, verify: verifyJsonBody });
  const raw = options.rawPaths ?? [];
  app.use((req, res, next) => (raw.some((p) => req.path.startsWith(p)) ? next() : refuseUnsafeWrites(req, next)));
  app.use((req, res, next) => (raw.some((p) => req.path.startsWith(p)) ? next() : json(req, res, next)));

  app.get('/health/live', (_req, res) => {
    res.json({ status: 'UP', service: options.service });
  });
  app.get('/health/ready', async (_req, res) => {
    const report = await checkReadiness(options.readiness ?? {}, options.readinessTimeoutMs ?? 2000);
    res.status(report.status === 'UP' ? 200 : 503).json({ ...report, ...options.readinessDetails?.(), service: options.service });
  });
  if (options.api) {
    const api = options.api;
    app.get('/openapi.json', (_req, res) => {
      res.json(api.toOpenApi());
    });
  }
  return app;
}

export interface ReadinessReport {
  status: 'UP' | 'DOWN';
  components: Record<string, { status: 'UP' | 'DOWN'; error?: string }>;
}

export async function checkReadiness(checks: Record<string, ReadinessCheck>, timeoutMs: number): Promise<ReadinessReport> {
  const components: ReadinessReport['components'] = {};
  await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          check(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
        components[name] = { status: 'UP' };
      } catch (err) {
        components[name] = { status: 'DOWN', error: (err as Error).message };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const status = Object.values(components).every((c) => c.status === 'UP') ? 'UP' : 'DOWN';
  return { status, components };
}

/** Adds the 404 fallback and the one problem+json error handler. Call after all routes. */
export function finishApp(app: Express): Express {
  app.use((req: Request, _res: Response, next: NextFunction) => {
    next(HttpProblem.notFound(`No route for ${req.method} ${req.path}`));
  });
  app.use(problemHandler);
  return app;
}

export function problemHandler(err: unknown, req: Request, res: Response, _next: NextFunction) {
  const problem = toHttpProblem(err);
  const log = req.log ?? console;
  if (problem.status >= 500 && !(err instanceof HttpProblem)) {
    (log as Logger).error({ err }, 'unexpected error');
  } else if (problem.status >= 500) {
    (log as Logger).warn({ status: problem.status, detail: problem.detail }, 'request failed');
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  for (const [k, v] of Object.entries(problem.extra.headers ?? {})) res.setHeader(k, v);
  res.status(problem.status).type('application/problem+json').send(JSON.stringify(problem.toProblem(req.originalUrl, req.id)));
}

/** Maps thrown values (our problems, body-parser's errors, anything else) to a problem. */
export function toHttpProblem(err: unknown): HttpProblem {
  if (err instanceof HttpProblem) return err;
  const e = err as { type?: string; status?: number; statusCode?: number; message?: string; limit?: number };
  switch (e?.type) {
    case 'entity.parse.failed':
      return HttpProblem.badRequest(`Malformed JSON body: ${e.message}`);
    case 'entity.too.large':
      return new HttpProblem(413, 'payloadTooLarge', `Body exceeds the limit of ${e.limit} bytes`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HttpProblem(415, 'validation', e.message ?? 'Unsupported body encoding');
    case 'request.aborted':
      return new HttpProblem(400, 'validation', 'Request aborted by the client');
  }
  const status = e?.status ?? e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return new HttpProblem(status, 'validation', e.message ?? 'Bad request');
  const unreachable = unavailableReason(err);
  if (unreachable) return HttpProblem.unavailable(`A service this one depends on is unavailable (${unreachable}); retry later`, 5);
  return new HttpProblem(500, 'internal', 'An unexpected error occurred; see the service log for the request id');
}

/** Socket errors of a dependency that is down or unreachable (an AggregateError carries one per address tried). */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
/**
 * PostgreSQL's admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections (and class 08, connection
 * exception, below); Prisma's "can't reach", "timed out", "server closed the connection", "no pool connection in time".
 */
const UNAVAILABLE_DB_CODES = new Set(['57P01', '57P02', '57P03', '53300', 'P1001', 'P1002', 'P1017', 'P2024']);
/** node-postgres's own, without a code: a connection cut mid-query, or none to be had within its connect timeout. */
const UNAVAILABLE_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect)|is not currently accepting connections/;

/**
 * Why a thrown value means "a backing service (the database) is down or refusing connections" — a 503 with
 * Retry-After, which a client can retry, rather than a 500 — or undefined when it does not.
 */
export function unavailableReason(err: unknown): string | undefined {
  const e = err as { code?: unknown; message?: unknown; errors?: unknown } | null | undefined;
  if (!e || typeof e !== 'object') return undefined;
  const code = typeof e.code === 'string' ? e.code : undefined;
  if (code && (UNREACHABLE_CODES.has(code) || UNAVAILABLE_DB_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return code;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return e.message;
  if (Array.isArray(e.errors)) return e.errors.map(unavailableReason).find((r) => r !== undefined);
  return undefined;
}
