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
import { AdminError } from '../domain/admin-error';
import { compileMetadataMatcher, type MockEngine } from '../domain/mock-engine';
import { toLoggedRequestJson, toServeEventJson, type ServeEvent } from '../domain/serve-event';
import { addAdminRoute, readInt, readJson, type AdminRouteContext } from './admin-route';

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

/** A LoggedRequest JSON (as WireMock clients send it) back to a request the matcher can read. */
export function fromLoggedRequestJson(json: unknown): MatchableRequest {
  const r = (json ?? {}) as { url?: string; absoluteUrl?: string; method?: string; headers?: Record<string, string | string[]>; body?: string; bodyAsBase64?: string; clientIp?: string };
  if (typeof r.url !== 'string' && typeof r.absoluteUrl !== 'string') throw AdminError.invalidEntity([{ path: '/url', message: 'url is required' }]);
  let url = r.url;
  let host: string | undefined;
  if (url === undefined && r.absoluteUrl) {
    const parsed = new URL(r.absoluteUrl);
    url = parsed.pathname + parsed.search;
    host = parsed.host;
  }
  const body = r.bodyAsBase64 !== undefined ? Buffer.from(r.bodyAsBase64, 'base64') : Buffer.from(r.body ?? '', 'utf8');
  return toMatchableRequest({ method: r.method ?? 'GET', url: url!, host, headers: r.headers, body, clientIp: r.clientIp });
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
    const removed = chronological().filter((e) => matchRequestPattern(compiled, e.request).isExactMatch);
    for (const e of removed) journal.remove(e.id);
    return { serveEvents: removed.map(toServeEventJson) };
  });
  addAdminRoute(ctx, 'post', '/requests/remove-by-metadata', 'Remove journal requests served by stubs with matching metadata', (req) => {
    const matches = compileMetadataMatcher(readJson(req));
    const removed = chronological().filter((e) => e.stubMapping && matches(e.stubMapping.metadata));
    for (const e of removed) journal.remove(e.id);
    return { serveEvents: removed.map(toServeEventJson) };
  });
  addAdminRoute(ctx, 'get', '/requests/unmatched', 'List requests no stub matched', () => ({
    requests: chronological()
      .filter((e) => !e.wasMatched)
      .map(loggedOf),
    ...disabled(),
  }));
  addAdminRoute(ctx, 'get', '/requests/unmatched/near-misses', 'Nearest stubs for each unmatched request', () => {
    const stubs = engine.allStubs();
    const nearMisses = chronological()
      .filter((e) => !e.wasMatched)
      .flatMap((e) =>
        findNearMisses(stubs, e.request, 3, (s) => engine.stubs.get(s.id)?.compiled).map((nm) => ({ request: loggedOf(e), stubMapping: nm.stubMapping, matchResult: toMatchResultJson(nm.matchResult) })),
      );
    return { nearMisses };
  });
  addAdminRoute(ctx, 'get', '/requests/:id', 'Get one serve event', (req) => {
    const event = journal.get(String(req.params.id));
    if (!event) throw AdminError.notFound(`No request with id ${req.params.id} in the journal`);
    return toServeEventJson(event);
  });
  // as WireMock: removing what is not (or no longer) there succeeds
  addAdminRoute(ctx, 'delete', '/requests/:id', 'Remove one serve event', (req) => {
    journal.remove(String(req.params.id));
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
