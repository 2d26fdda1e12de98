import {
  compileRequestPattern,
  findNearMisses,
  matchRequestPattern,
  toMatchableRequest,
  validateRequestPattern,
  type MatchableRequest,
  type MatchResult,
  type RequestPattern,
} from '@mockyard/matching';
import { z } from 'zod';
import { AdminError } from '../domain/admin-error';
import { compileMetadataMatcher, type MockEngine } from '../domain/mock-engine';
import { toLoggedRequestJson, toServeEventJson, type ServeEvent } from '../domain/serve-event';
import { addAdminRoute, readInt, readJson, uuidParam, type AdminRouteContext } from './admin-route';

function parsePattern(json: unknown): RequestPattern {
  const result = validateRequestPattern(json ?? {});
  if (!result.ok) throw AdminError.invalidEntity(result.errors);
  return result.pattern;
}

function parseSince(value: unknown): number | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = Date.parse(String(value));
  if (Number.isNaN(ms)) throw AdminError.badRequest('since must be an ISO-8601 date-time');
  return ms;
}

/**
 * The fields of a LoggedRequest JSON (as WireMock clients send it) that the matcher reads; the others
 * (`loggedDate`, `queryParams`, `cookies`…) are derived again from these. Nulls mean absent, as Jackson writes them.
 */
const LoggedRequestInputSchema = z.looseObject({
  url: z.string({ error: 'url must be a string such as "/path?query"' }).nullish(),
  absoluteUrl: z.string({ error: 'absoluteUrl must be a string' }).nullish(),
  method: z.string({ error: 'method must be a string such as "GET"' }).nullish(),
  headers: z.record(z.string(), z.union([z.string(), z.array(z.string())], { error: 'a header value must be a string or an array of strings' }), { error: 'headers must be an object of name -> value or [values]' }).nullish(),
  body: z.string({ error: 'body must be a string (bodyAsBase64 carries binary bodies)' }).nullish(),
  bodyAsBase64: z.string({ error: 'bodyAsBase64 must be a base64 string' }).nullish(),
  clientIp: z.string({ error: 'clientIp must be a string' }).nullish(),
}, { error: 'a logged request must be a JSON object' });

/** A LoggedRequest JSON back to a request the matcher can read; 422 naming the field when it is malformed. */
export function fromLoggedRequestJson(json: unknown): MatchableRequest {
  const parsed = LoggedRequestInputSchema.safeParse(json ?? {});
  if (!parsed.success) throw AdminError.invalidEntity(parsed.error.issues.map((issue) => ({ path: toJsonPointer(issue.path), message: issue.message })));
  const r = parsed.data;
  if (typeof r.url !== 'string' && typeof r.absoluteUrl !== 'string') throw AdminError.invalidEntity([{ path: '/url', message: 'url is required' }]);
  let url = r.url;
  let host: string | undefined;
  let scheme: string | undefined;
  if (typeof url !== 'string') {
    // as WireMock (java.net.URL): any absolute URL, so "not a url" (no scheme) is refused but mailto: is not
    if (!URL.canParse(r.absoluteUrl!)) {
      throw AdminError.invalidEntity([{ path: '/absoluteUrl', message: `absoluteUrl must be an absolute URL such as "http://host/path", got ${JSON.stringify(r.absoluteUrl!.slice(0, 200))}` }]);
    }
    const absolute = new URL(r.absoluteUrl!);
    url = absolute.pathname + absolute.search;
    host = absolute.host;
    scheme = absolute.protocol.slice(0, -1);
  }
  const body = typeof r.bodyAsBase64 === 'string' ? Buffer.from(r.bodyAsBase64, 'base64') : Buffer.from(r.body ?? '', 'utf8');
  return toMatchableRequest({ method: r.method ?? 'GET', url, scheme, host, headers: r.headers ?? undefined, body, clientIp: r.clientIp ?? undefined });
}

/** A zod issue path as a JSON pointer (`["headers", "a/b"]` → `/headers/a~1b`). */
function toJsonPointer(path: readonly PropertyKey[]): string {
  return '/' + path.map((segment) => String(segment).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

const loggedOf = (e: ServeEvent) => toLoggedRequestJson(e.request, e.loggedDate);

/** WireMock's MatchResult JSON: the distance, plus what differed as `diffDescriptions`. */
function toMatchResultJson(result: MatchResult) {
  return {
    distance: result.distance,
    subEvents: [],
    diffDescriptions: result.diffs.filter((d) => !d.matched).map((d) => ({ expected: d.expected, actual: d.actual, errorMessage: `${d.field} does not match` })),
  };
}

/** The request journal and near-miss endpoints. */
export function registerRequestRoutes(ctx: AdminRouteContext, engine: MockEngine) {
  const journal = engine.journal;
  const disabled = () => ({ requestJournalDisabled: !journal.isEnabled });
  // As WireMock orders them: find and count oldest first; the journal, unmatched, near-misses and what remove
  // removed newest first.
  const chronological = () => journal.list().reverse();

  addAdminRoute(ctx, 'get', '/requests', 'List served requests, newest first (limit, since)', (req) => {
    const events = journal.list({ limit: readInt(req.query.limit, 'limit'), sinceMs: parseSince(req.query.since) });
    return { requests: events.map(toServeEventJson), meta: { total: journal.size }, ...disabled() };
  });
  addAdminRoute(ctx, 'delete', '/requests', 'Clear the request journal', () => void journal.clear());
  addAdminRoute(ctx, 'post', '/requests/reset', 'Clear the request journal (deprecated path)', () => void journal.clear());
  addAdminRoute(ctx, 'post', '/requests/count', 'Count journal requests matching a request pattern', (req) => {
    const compiled = compileRequestPattern(parsePattern(readJson(req)));
    return { count: chronological().filter((e) => matchRequestPattern(compiled, e.request).isExactMatch).length, ...disabled() };
  });
  addAdminRoute(ctx, 'post', '/requests/find', 'Find journal requests matching a request pattern', (req) => {
    const compiled = compileRequestPattern(parsePattern(readJson(req)));
    return { requests: chronological().filter((e) => matchRequestPattern(compiled, e.request).isExactMatch).map(loggedOf), ...disabled() };
  });
  addAdminRoute(ctx, 'post', '/requests/remove', 'Remove journal requests matching a request pattern', (req) => {
    const compiled = compileRequestPattern(parsePattern(readJson(req)));
    const removed = journal.list().filter((e) => matchRequestPattern(compiled, e.request).isExactMatch);
    for (const e of removed) journal.remove(e.id);
    return { serveEvents: removed.map(toServeEventJson) };
  });
  addAdminRoute(ctx, 'post', '/requests/remove-by-metadata', 'Remove journal requests served by stubs with matching metadata', (req) => {
    const matches = compileMetadataMatcher(readJson(req));
    const removed = journal.list().filter((e) => e.stubMapping && matches(e.stubMapping.metadata));
    for (const e of removed) journal.remove(e.id);
    return { serveEvents: removed.map(toServeEventJson) };
  });
  addAdminRoute(ctx, 'get', '/requests/unmatched', 'List requests no stub matched', () => ({
    requests: journal
      .list()
      .filter((e) => !e.wasMatched)
      .map(loggedOf),
    ...disabled(),
  }));
  addAdminRoute(ctx, 'get', '/requests/unmatched/near-misses', 'Nearest stubs for each unmatched request', () => {
    const stubs = engine.allStubs();
    const nearMisses = journal
      .list()
      .filter((e) => !e.wasMatched)
      .flatMap((e) =>
        findNearMisses(stubs, e.request, 3, (s) => engine.stubs.get(s.id)?.compiled).map((nm) => ({ request: loggedOf(e), stubMapping: nm.stubMapping, matchResult: toMatchResultJson(nm.matchResult) })),
      );
    return { nearMisses };
  });
  addAdminRoute(ctx, 'get', '/requests/:id', 'Get one serve event', (req) => {
    const event = journal.get(uuidParam(req.params.id));
    if (!event) throw AdminError.notFound(`No request with id ${req.params.id} in the journal`);
    return toServeEventJson(event);
  });
  // as WireMock: removing what is not (or no longer) there succeeds
  addAdminRoute(ctx, 'delete', '/requests/:id', 'Remove one serve event', (req) => {
    journal.remove(uuidParam(req.params.id));
    return {};
  });

  addAdminRoute(ctx, 'post', '/near-misses/request', 'Nearest stubs for a given request', (req) => {
    const json = readJson(req);
    const request = fromLoggedRequestJson(json);
    const logged = toLoggedRequestJson(request, Date.now());
    return {
      nearMisses: findNearMisses(engine.allStubs(), request, 3, (s) => engine.stubs.get(s.id)?.compiled).map((nm) => ({ request: logged, stubMapping: nm.stubMapping, matchResult: toMatchResultJson(nm.matchResult) })),
    };
  });
  addAdminRoute(ctx, 'post', '/near-misses/request-pattern', 'Nearest journal requests for a given request pattern', (req) => {
    const pattern = parsePattern(readJson(req));
    const compiled = compileRequestPattern(pattern);
    const ranked = chronological()
      .map((e) => ({ e, result: matchRequestPattern(compiled, e.request) }))
      .sort((a, b) => a.result.distance - b.result.distance)
      .slice(0, 3);
    return { nearMisses: ranked.map(({ e, result }) => ({ request: loggedOf(e), requestPattern: pattern, matchResult: toMatchResultJson(result) })) };
  });
}
