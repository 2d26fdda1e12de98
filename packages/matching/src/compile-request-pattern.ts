import { compileContentPattern } from './compile-content-pattern';
import type { CompiledContentPattern } from './compiled-content-pattern';
import type { CompiledMultiValuePattern } from './compile-multi-value-pattern';
import { compileMultiValuePattern } from './compile-multi-value-pattern';
import type { CompiledMultipartPattern } from './compile-multipart-pattern';
import { compileMultipartPattern } from './compile-multipart-pattern';
import { compileUserRegex, findLiteralPrefix } from './compile-user-regex';
import { joinPath, PatternError } from './pattern-error';
import type { RequestPattern } from './stub-mapping';
import type { UrlPathTemplate } from './url-path-template';
import { compileUrlPathTemplate } from './url-path-template';

export const URL_KEYS = ['url', 'urlPattern', 'urlPath', 'urlPathPattern', 'urlPathTemplate'] as const;
export type UrlKind = (typeof URL_KEYS)[number] | 'any';

const REQUEST_KEYS = new Set<string>([
  'method', ...URL_KEYS, 'pathParameters', 'queryParameters', 'formParameters', 'headers', 'cookies', 'bodyPatterns',
  'multipartPatterns', 'basicAuthCredentials', 'scheme', 'host', 'port', 'customMatcher',
]);

export interface CompiledUrl {
  kind: UrlKind;
  expected: string;
  regex?: RegExp;
  /** Literal start every match needs (regex kinds); checked before the regex. */
  prefix?: string;
  template?: UrlPathTemplate;
}

export interface NamedPattern {
  name: string;
  /** Lower-cased name for headers (request header names arrive lower-cased). */
  key: string;
  pattern: CompiledMultiValuePattern;
}

/** A RequestPattern with every regex, template, JSON and XML document compiled once. */
export interface CompiledRequestPattern {
  readonly compiled: true;
  readonly source: RequestPattern;
  readonly method: { any: true } | { any: false; oneOf: readonly string[]; negate: boolean; expected: string };
  readonly url: CompiledUrl;
  readonly pathParameters: readonly NamedPattern[];
  readonly queryParameters: readonly NamedPattern[];
  readonly formParameters: readonly NamedPattern[];
  readonly headers: readonly NamedPattern[];
  readonly cookies: readonly NamedPattern[];
  readonly bodyPatterns: readonly CompiledContentPattern[];
  readonly multipartPatterns: readonly CompiledMultipartPattern[];
  readonly basicAuth?: { username: string; password: string; expectedHeader: string };
  readonly scheme?: string;
  readonly host?: CompiledContentPattern;
  readonly port?: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Runs `step`, turning a PatternError into an entry of `errors` (so one bad field does not hide others). */
function collect<T>(errors: PatternError[], step: () => T): T | undefined {
  try {
    return step();
  } catch (error) {
    if (error instanceof PatternError) {
      errors.push(error);
      return undefined;
    }
    throw error;
  }
}

function compileMethod(value: unknown, path: string): CompiledRequestPattern['method'] {
  if (value === undefined || value === 'ANY') return { any: true };
  if (typeof value === 'string') {
    if (!/^[A-Za-z!#$%&'*+.^_`|~0-9-]+$/.test(value)) throw new PatternError(path, `method must be an HTTP method name or ANY, got ${JSON.stringify(value)}`);
    return { any: false, oneOf: [value.toUpperCase()], negate: false, expected: value.toUpperCase() };
  }
  if (isRecord(value)) {
    const keys = Object.keys(value);
    const key = keys[0];
    const list = value[key];
    if (keys.length === 1 && (key === 'oneOf' || key === 'noneOf') && Array.isArray(list) && list.length > 0 && list.every((item) => typeof item === 'string')) {
      const methods = (list as string[]).map((item) => item.toUpperCase());
      return { any: false, oneOf: methods, negate: key === 'noneOf', expected: `${key} ${methods.join(', ')}` };
    }
  }
  throw new PatternError(path, 'method must be a string such as "GET", "ANY", or {"oneOf": [...]} / {"noneOf": [...]}');
}

function compileUrl(spec: Record<string, unknown>, basePath: string): CompiledUrl {
  const present = URL_KEYS.filter((key) => spec[key] !== undefined);
  if (present.length > 1) throw new PatternError(joinPath(basePath, present[1]), `only one URL matcher allowed, found ${present.join(', ')}`);
  if (present.length === 0) return { kind: 'any', expected: '(any URL)' };
  const kind = present[0];
  const path = joinPath(basePath, kind);
  const value = spec[kind];
  if (typeof value !== 'string') throw new PatternError(path, `${kind} must be a string`);
  if (kind === 'urlPattern' || kind === 'urlPathPattern') {
    const check = compileUserRegex(value, { dotAll: true });
    if (!check.ok) throw new PatternError(path, check.message);
    return { kind, expected: value, regex: check.regex, prefix: check.regex.flags.includes('i') ? '' : findLiteralPrefix(value) };
  }
  if (kind === 'urlPathTemplate') {
    try {
      return { kind, expected: value, template: compileUrlPathTemplate(value) };
    } catch (error) {
      throw new PatternError(path, (error as Error).message);
    }
  }
  return { kind, expected: value };
}

function compileNamed(value: unknown, path: string, errors: PatternError[], lowerCase: boolean): NamedPattern[] {
  if (value === undefined) return [];
  if (!isRecord(value)) {
    errors.push(new PatternError(path, 'must be an object of name -> match pattern'));
    return [];
  }
  const out: NamedPattern[] = [];
  for (const [name, spec] of Object.entries(value)) {
    const pattern = collect(errors, () => compileMultiValuePattern(spec, joinPath(path, name)));
    if (pattern) out.push({ name, key: lowerCase ? name.toLowerCase() : name, pattern });
  }
  return out;
}

/**
 * Validates a RequestPattern's JSON and compiles it. Errors carry dotted paths under `basePath`
 * (`request.urlPattern`); all independent problems are reported, not just the first.
 */
export function compileRequestPatternChecked(json: unknown, basePath: string): { ok: true; pattern: CompiledRequestPattern } | { ok: false; errors: PatternError[] } {
  if (!isRecord(json)) return { ok: false, errors: [new PatternError(basePath, 'request must be an object')] };
  const errors: PatternError[] = [];
  for (const key of Object.keys(json)) {
    if (!REQUEST_KEYS.has(key)) errors.push(new PatternError(joinPath(basePath, key), `unrecognised field '${key}' in a request pattern`));
  }
  if (json.customMatcher !== undefined) errors.push(new PatternError(joinPath(basePath, 'customMatcher'), 'custom matchers (extensions) are not supported by Mockyard'));
  const method = collect(errors, () => compileMethod(json.method, joinPath(basePath, 'method')));
  const url = collect(errors, () => compileUrl(json, basePath));
  const pathParameters = compileNamed(json.pathParameters, joinPath(basePath, 'pathParameters'), errors, false);
  if (json.pathParameters !== undefined && url && url.kind !== 'urlPathTemplate') {
    errors.push(new PatternError(joinPath(basePath, 'pathParameters'), 'pathParameters can only be used with urlPathTemplate'));
  } else if (url?.template) {
    for (const parameter of pathParameters) {
      if (!url.template.parameterNames.includes(parameter.name)) errors.push(new PatternError(joinPath(joinPath(basePath, 'pathParameters'), parameter.name), `urlPathTemplate ${url.expected} has no parameter {${parameter.name}}`));
    }
  }
  const queryParameters = compileNamed(json.queryParameters, joinPath(basePath, 'queryParameters'), errors, false);
  const formParameters = compileNamed(json.formParameters, joinPath(basePath, 'formParameters'), errors, false);
  const headers = compileNamed(json.headers, joinPath(basePath, 'headers'), errors, true);
  const cookies = compileNamed(json.cookies, joinPath(basePath, 'cookies'), errors, false);
  const bodyPatterns: CompiledContentPattern[] = [];
  if (json.bodyPatterns !== undefined) {
    if (!Array.isArray(json.bodyPatterns)) errors.push(new PatternError(joinPath(basePath, 'bodyPatterns'), 'bodyPatterns must be an array of match patterns'));
    else json.bodyPatterns.forEach((spec, index) => {
      const pattern = collect(errors, () => compileContentPattern(spec, joinPath(joinPath(basePath, 'bodyPatterns'), index)));
      if (pattern) bodyPatterns.push(pattern);
    });
  }
  const multipartPatterns: CompiledMultipartPattern[] = [];
  if (json.multipartPatterns !== undefined) {
    if (!Array.isArray(json.multipartPatterns)) errors.push(new PatternError(joinPath(basePath, 'multipartPatterns'), 'multipartPatterns must be an array'));
    else json.multipartPatterns.forEach((spec, index) => {
      const pattern = collect(errors, () => compileMultipartPattern(spec, joinPath(joinPath(basePath, 'multipartPatterns'), index)));
      if (pattern) multipartPatterns.push(pattern);
    });
  }
  let basicAuth: CompiledRequestPattern['basicAuth'];
  if (json.basicAuthCredentials !== undefined) {
    const credentials = json.basicAuthCredentials;
    const path = joinPath(basePath, 'basicAuthCredentials');
    if (!isRecord(credentials) || typeof credentials.username !== 'string' || typeof credentials.password !== 'string' || Object.keys(credentials).some((key) => key !== 'username' && key !== 'password')) {
      errors.push(new PatternError(path, 'basicAuthCredentials must be {"username": string, "password": string}'));
    } else {
      const token = Buffer.from(`${credentials.username}:${credentials.password}`, 'utf8').toString('base64');
      basicAuth = { username: credentials.username, password: credentials.password, expectedHeader: `Basic ${token}` };
    }
  }
  if (json.scheme !== undefined && json.scheme !== 'http' && json.scheme !== 'https') errors.push(new PatternError(joinPath(basePath, 'scheme'), 'scheme must be "http" or "https"'));
  let host: CompiledContentPattern | undefined;
  if (json.host !== undefined) host = collect(errors, () => compileContentPattern(typeof json.host === 'string' ? { equalTo: json.host } : json.host, joinPath(basePath, 'host')));
  if (json.port !== undefined && (typeof json.port !== 'number' || !Number.isInteger(json.port) || json.port < 1 || json.port > 65535)) {
    errors.push(new PatternError(joinPath(basePath, 'port'), 'port must be an integer between 1 and 65535'));
  }
  if (errors.length > 0 || !method || !url) return { ok: false, errors };
  return {
    ok: true,
    pattern: {
      compiled: true, source: json as RequestPattern, method, url, pathParameters, queryParameters, formParameters, headers, cookies, bodyPatterns,
      multipartPatterns, basicAuth, scheme: json.scheme as string | undefined, host, port: json.port as number | undefined,
    },
  };
}

/** Compiles a RequestPattern for repeated matching; throws PatternError when it is invalid. */
export function compileRequestPattern(pattern: RequestPattern | unknown): CompiledRequestPattern {
  const result = compileRequestPatternChecked(pattern, 'request');
  if (!result.ok) throw result.errors[0];
  return result.pattern;
}

/** The URL matcher as WireMock's report shows it (`[path] /a`, `[path regex] /a/.*`, `[regex] …`). */
export function describeUrl(url: CompiledUrl): string {
  switch (url.kind) {
    case 'urlPath': return `[path] ${url.expected}`;
    case 'urlPattern': return `[regex] ${url.expected}`;
    case 'urlPathPattern': return `[path regex] ${url.expected}`;
    case 'urlPathTemplate': return `[path template] ${url.expected}`;
    default: return url.expected;
  }
}
