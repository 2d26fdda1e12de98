import type { CompiledRequestPattern, NamedPattern } from './compile-request-pattern';
import { compileRequestPattern, describeUrl } from './compile-request-pattern';
import { describePattern } from './compiled-content-pattern';
import type { MatchableRequest } from './matchable-request';
import { normalisedLevenshtein } from './normalised-levenshtein';
import type { ParsedRequest } from './parsed-request';
import { parseRequest } from './parsed-request';
import type { RequestPattern } from './stub-mapping';

/** One compared field, as WireMock's diff shows it. */
export interface DiffLine {
  /** `HTTP method`, `URL`, `Header: Accept`, `Query: q`, `Cookie: c`, `Form: f`, `Path parameter: id`, `Body`, `Scheme`, `Host`, `Port`, `Basic auth`. */
  field: string;
  expected: string;
  actual: string;
  matched: boolean;
}

export interface MatchResult {
  isExactMatch: boolean;
  /** 0 for an exact match, up to 1 for nothing in common. */
  distance: number;
  diffs: DiffLine[];
  /** Values of `{name}` segments when the pattern uses urlPathTemplate and the path fits it. */
  pathParameters?: Record<string, string>;
}

export interface MatchOptions {
  /**
   * Stop at the first field that differs and return a shared "no match" result (distance 1, no diffs).
   * The serving hot path uses this; near-miss reports leave it off. Default false.
   */
  exactOnly?: boolean;
  /** Build `diffs` (default true unless exactOnly). */
  withDiffs?: boolean;
}

/**
 * WireMock 3's weights and its two stages: where the request goes (scheme 3, host 10, port 10, client IP 3
 * — always met here —, URL 10, method 3) is graded alone when it differs (out of 39); only when it all
 * matches do the details (path parameters, headers, query, form, cookies, body, multipart: 1 each) join
 * in (out of 46). Checked against WireMock 3.13.2's near-miss distances.
 */
const WEIGHT = { scheme: 3, host: 10, port: 10, clientIp: 3, url: 10, method: 3, pathParameters: 1, headers: 1, queryParameters: 1, formParameters: 1, cookies: 1, body: 1, multipart: 1 } as const;
const LOCATION_WEIGHT = WEIGHT.scheme + WEIGHT.host + WEIGHT.port + WEIGHT.clientIp + WEIGHT.url + WEIGHT.method;
const TOTAL_WEIGHT = Object.values(WEIGHT).reduce((sum, weight) => sum + weight, 0);

const NO_MATCH: MatchResult = Object.freeze({ isExactMatch: false, distance: 1, diffs: Object.freeze([]) as unknown as DiffLine[] }) as MatchResult;

const compiledCache = new WeakMap<RequestPattern, CompiledRequestPattern>();

function toCompiled(pattern: RequestPattern | CompiledRequestPattern): CompiledRequestPattern {
  if ((pattern as CompiledRequestPattern).compiled === true) return pattern as CompiledRequestPattern;
  let compiled = compiledCache.get(pattern as RequestPattern);
  if (!compiled) {
    compiled = compileRequestPattern(pattern);
    compiledCache.set(pattern as RequestPattern, compiled);
  }
  return compiled;
}

function formatValues(values: readonly string[] | undefined): string {
  if (!values || values.length === 0) return '(absent)';
  return values.length === 1 ? values[0] : values.join(', ');
}

class Scorer {
  weighted = 0;
  exact = true;
  readonly diffs: DiffLine[] | null;
  constructor(withDiffs: boolean) {
    this.diffs = withDiffs ? [] : null;
  }
  add(weight: number, distance: number): void {
    if (distance > 0) this.exact = false;
    this.weighted += weight * distance;
  }
  diff(field: string, expected: string, actual: string, distance: number): void {
    this.diffs?.push({ field, expected, actual, matched: distance === 0 });
  }
}

/** `missingFails`: a missing value fails every pattern but `absent` (WireMock's cookies; headers and query differ). */
function scoreGroup(scorer: Scorer, weight: number, label: string, patterns: readonly NamedPattern[], lookup: (pattern: NamedPattern) => readonly string[] | undefined, exactOnly: boolean, missingFails = false): boolean {
  if (patterns.length === 0) return true;
  let sum = 0;
  for (const named of patterns) {
    const values = lookup(named);
    const distance = missingFails && values === undefined && !named.pattern.isAbsent ? 1 : named.pattern.distance(values);
    if (distance > 0 && exactOnly) return false;
    sum += distance;
    scorer.diff(`${label}: ${named.name}`, named.pattern.description, formatValues(values), distance);
  }
  scorer.add(weight, sum === 0 ? 0 : Math.max(sum / patterns.length, 0.001));
  return true;
}

function methodDistance(pattern: CompiledRequestPattern, method: string): number {
  if (pattern.method.any) return 0;
  const listed = pattern.method.oneOf.includes(method);
  return listed !== pattern.method.negate ? 0 : 1;
}

function urlDistance(pattern: CompiledRequestPattern, request: MatchableRequest, parsed: ParsedRequest): { distance: number; parameters?: Record<string, string> } {
  const url = pattern.url;
  switch (url.kind) {
    case 'any': return { distance: 0 };
    case 'url': return { distance: url.expected === request.url ? 0 : levenshteinOrOne(url.expected, request.url) };
    case 'urlPath': return { distance: url.expected === parsed.path ? 0 : levenshteinOrOne(url.expected, parsed.path) };
    case 'urlPattern': return { distance: url.regex!.test(request.url) ? 0 : 1 };
    case 'urlPathPattern': return { distance: url.regex!.test(parsed.path) ? 0 : 1 };
    case 'urlPathTemplate': {
      const parameters = url.template!.match(parsed.path);
      return parameters ? { distance: 0, parameters } : { distance: Math.max(url.template!.segmentDistance(parsed.path), 0.001) };
    }
  }
}

function levenshteinOrOne(expected: string, actual: string): number {
  return Math.max(normalisedLevenshtein(expected, actual), 0.001);
}

/**
 * Matches a request against a RequestPattern (raw JSON or compiled with compileRequestPattern; raw
 * patterns are compiled once and cached by object identity). Graded like WireMock: each field gives
 * a distance in [0,1], combined with WireMock's weights; `isExactMatch` iff distance is 0.
 */
export function matchRequestPattern(pattern: RequestPattern | CompiledRequestPattern, request: MatchableRequest, options: MatchOptions = {}): MatchResult {
  const compiled = toCompiled(pattern);
  const exactOnly = options.exactOnly === true;
  const withDiffs = options.withDiffs ?? !exactOnly;
  // Hot path: most stubs differ in method or URL; reject those without allocating anything.
  if (exactOnly && !isLocationMatch(compiled, request)) return NO_MATCH;
  return matchFully(compiled, request, exactOnly, withDiffs);
}

function isLocationMatch(compiled: CompiledRequestPattern, request: MatchableRequest): boolean {
  if (methodDistance(compiled, request.method) !== 0) return false;
  const url = compiled.url;
  switch (url.kind) {
    case 'any': break;
    case 'url': if (url.expected !== request.url) return false; break;
    case 'urlPattern': if (!request.url.startsWith(url.prefix!) || !url.regex!.test(request.url)) return false; break;
    case 'urlPath': if (url.expected !== parseRequest(request).path) return false; break;
    case 'urlPathPattern': {
      const path = parseRequest(request).path;
      if (!path.startsWith(url.prefix!) || !url.regex!.test(path)) return false;
      break;
    }
    case 'urlPathTemplate': if (!url.template!.match(parseRequest(request).path)) return false; break;
  }
  if (compiled.scheme !== undefined && compiled.scheme !== request.scheme) return false;
  if (compiled.port !== undefined && compiled.port !== request.port) return false;
  return true;
}

function matchFully(compiled: CompiledRequestPattern, request: MatchableRequest, exactOnly: boolean, withDiffs: boolean): MatchResult {
  const scorer = new Scorer(withDiffs);
  const parsed = parseRequest(request);

  const methodMiss = methodDistance(compiled, request.method);
  if (methodMiss > 0 && exactOnly) return NO_MATCH;
  scorer.add(WEIGHT.method, methodMiss);
  scorer.diff('HTTP method', compiled.method.any ? 'ANY' : compiled.method.expected, request.method, methodMiss);

  const url = urlDistance(compiled, request, parsed);
  if (url.distance > 0 && exactOnly) return NO_MATCH;
  scorer.add(WEIGHT.url, url.distance);
  scorer.diff('URL', describeUrl(compiled.url), compiled.url.kind === 'urlPath' || compiled.url.kind === 'urlPathPattern' || compiled.url.kind === 'urlPathTemplate' ? parsed.path : request.url, url.distance);

  if (compiled.scheme !== undefined) {
    const distance = compiled.scheme === request.scheme ? 0 : 1;
    if (distance > 0 && exactOnly) return NO_MATCH;
    scorer.add(WEIGHT.scheme, distance);
    scorer.diff('Scheme', compiled.scheme, request.scheme, distance);
  }
  if (compiled.host !== undefined) {
    const distance = compiled.host.distance(request.host);
    if (distance > 0 && exactOnly) return NO_MATCH;
    scorer.add(WEIGHT.host, distance);
    scorer.diff('Host', describePattern(compiled.host), request.host, distance);
  }
  if (compiled.port !== undefined) {
    const distance = compiled.port === request.port ? 0 : 1;
    if (distance > 0 && exactOnly) return NO_MATCH;
    scorer.add(WEIGHT.port, distance);
    scorer.diff('Port', String(compiled.port), String(request.port), distance);
  }

  const isLocationExact = scorer.exact;
  const locationWeighted = scorer.weighted;
  const parameters = url.parameters;
  if (!scoreGroup(scorer, WEIGHT.pathParameters, 'Path parameter', compiled.pathParameters, (named) => (parameters && named.name in parameters ? [parameters[named.name]] : undefined), exactOnly)) return NO_MATCH;
  if (!scoreGroup(scorer, WEIGHT.queryParameters, 'Query', compiled.queryParameters, (named) => parsed.query[named.name], exactOnly)) return NO_MATCH;
  if (!scoreHeaders(scorer, compiled, request, exactOnly)) return NO_MATCH;
  if (!scoreGroup(scorer, WEIGHT.cookies, 'Cookie', compiled.cookies, (named) => request.cookies[named.name], exactOnly, true)) return NO_MATCH;
  if (!scoreGroup(scorer, WEIGHT.formParameters, 'Form', compiled.formParameters, (named) => parsed.form[named.name], exactOnly)) return NO_MATCH;
  if (!scoreBody(scorer, compiled, request, parsed, exactOnly)) return NO_MATCH;
  if (!scoreMultipart(scorer, compiled, parsed, exactOnly)) return NO_MATCH;

  const weighted = isLocationExact ? scorer.weighted / TOTAL_WEIGHT : locationWeighted / LOCATION_WEIGHT;
  const distance = scorer.exact ? 0 : Math.min(1, Math.max(weighted, 1e-6));
  const result: MatchResult = { isExactMatch: scorer.exact, distance, diffs: scorer.diffs ?? [] };
  if (parameters) result.pathParameters = parameters;
  return result;
}

function scoreHeaders(scorer: Scorer, compiled: CompiledRequestPattern, request: MatchableRequest, exactOnly: boolean): boolean {
  if (compiled.headers.length === 0 && !compiled.basicAuth) return true;
  let sum = 0;
  let count = 0;
  for (const named of compiled.headers) {
    const values = request.headers[named.key];
    const distance = named.pattern.distance(values);
    if (distance > 0 && exactOnly) return false;
    sum += distance;
    count++;
    scorer.diff(`Header: ${named.name}`, named.pattern.description, formatValues(values), distance);
  }
  if (compiled.basicAuth) {
    // WireMock compares the Authorization header with equalTo, so a near miss is graded by Levenshtein.
    const actual = request.headers['authorization'];
    const expectedHeader = compiled.basicAuth.expectedHeader;
    // the scheme's case does not matter (`basic …` matches, as on WireMock); the credentials' does
    const distance = !actual || actual.length === 0 ? 1 : Math.min(...actual.map((value) => normalisedLevenshtein(expectedHeader, value.replace(/^basic /i, 'Basic '))));
    if (distance > 0 && exactOnly) return false;
    sum += distance;
    count++;
    scorer.diff('Basic auth', `${compiled.basicAuth.username}:${compiled.basicAuth.password}`, describeBasicAuth(actual), distance);
  }
  scorer.add(WEIGHT.headers, sum === 0 ? 0 : Math.max(sum / count, 0.001));
  return true;
}

function describeBasicAuth(values: readonly string[] | undefined): string {
  const header = values?.[0];
  if (!header) return '(absent)';
  if (!/^basic /i.test(header)) return header;
  return Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
}

function scoreBody(scorer: Scorer, compiled: CompiledRequestPattern, request: MatchableRequest, parsed: ParsedRequest, exactOnly: boolean): boolean {
  if (compiled.bodyPatterns.length === 0) return true;
  let sum = 0;
  for (const pattern of compiled.bodyPatterns) {
    const distance = pattern.distanceBytes ? pattern.distanceBytes(request.body) : pattern.distance(pattern.isAbsent && parsed.bodyText === '' ? undefined : parsed.bodyText);
    if (distance > 0 && exactOnly) return false;
    sum += distance;
    scorer.diff('Body', describePattern(pattern), parsed.bodyText, distance);
  }
  scorer.add(WEIGHT.body, sum === 0 ? 0 : Math.max(sum / compiled.bodyPatterns.length, 0.001));
  return true;
}


function scoreMultipart(scorer: Scorer, compiled: CompiledRequestPattern, parsed: ParsedRequest, exactOnly: boolean): boolean {
  if (compiled.multipartPatterns.length === 0) return true;
  let sum = 0;
  for (const pattern of compiled.multipartPatterns) {
    const distance = pattern.distance(parsed.parts);
    if (distance > 0 && exactOnly) return false;
    sum += distance;
    scorer.diff('Multipart', pattern.description, parsed.parts.map((part) => part.name ?? '(unnamed)').join(', ') || '(no parts)', distance);
  }
  scorer.add(WEIGHT.multipart, sum === 0 ? 0 : Math.max(sum / compiled.multipartPatterns.length, 0.001));
  return true;
}
