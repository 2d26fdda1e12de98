import type { Stub } from '../api/hub-schemas';

const URL_KEYS = ['url', 'urlPath', 'urlPattern', 'urlPathPattern', 'urlPathTemplate'] as const;
export const DEFAULT_PRIORITY = 5;

export function readStubId(stub: Stub): string | undefined {
  return stub.id ?? stub.uuid;
}

/**
 * A stub's method rule as one line: the name (`GET`; `ANY` when absent), or WireMock 3's pattern as
 * `GET | POST` (oneOf) or `not GET | POST` (noneOf).
 */
export function describeMethod(method: Stub['request']['method']): string {
  if (method === undefined) return 'ANY';
  if (typeof method === 'string') return method;
  if (method.oneOf) return method.oneOf.join(' | ');
  if (method.noneOf) return `not ${method.noneOf.join(' | ')}`;
  return 'ANY';
}

/**
 * Whether a method rule lets `actual` through, as the engine reads it (packages/matching, compileMethod): only
 * the exact `ANY` (or no rule) lets every method through; names compare in any case.
 */
export function methodMatches(method: Stub['request']['method'], actual: string): boolean {
  const upper = actual.toUpperCase();
  if (method === undefined || method === 'ANY') return true;
  if (typeof method === 'string') return method.toUpperCase() === upper;
  if (method.oneOf) return method.oneOf.some((m) => m.toUpperCase() === upper);
  if (method.noneOf) return !method.noneOf.some((m) => m.toUpperCase() === upper);
  return true;
}

/** The URL rule of a stub as one line (`urlPathPattern ~ /users/.*`, or `any URL`). */
export function describeStubUrl(stub: Stub): string {
  for (const key of URL_KEYS) {
    const value = stub.request[key];
    if (typeof value === 'string') return key === 'url' || key === 'urlPath' ? value : `${value}  (${key})`;
  }
  return 'any URL';
}

/** Stubs matching a free-text search on method, URL and name, by priority (1 first, default 5), then name. */
export function filterAndSortStubs(stubs: Stub[], search: string): Stub[] {
  const needle = search.trim().toLowerCase();
  const matching = needle
    ? stubs.filter((stub) => [describeMethod(stub.request.method), describeStubUrl(stub), stub.name ?? ''].some((text) => text.toLowerCase().includes(needle)))
    : stubs;
  return [...matching].sort((a, b) => (a.priority ?? DEFAULT_PRIORITY) - (b.priority ?? DEFAULT_PRIORITY) || (a.name ?? '').localeCompare(b.name ?? ''));
}

/** Reads a file of mappings: WireMock's `{mappings: [...]}`, a bare array, or a single stub. */
export function readMappingsFile(text: string): unknown[] {
  const value: unknown = JSON.parse(text);
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (Array.isArray(record.mappings)) return record.mappings;
    if ('request' in record && 'response' in record) return [record];
  }
  throw new Error('expected {"mappings": [...]}, an array of stubs, or one stub');
}

export const NEW_STUB_TEMPLATE = {
  name: 'New stub',
  priority: 5,
  request: { method: 'GET', urlPath: '/hello' },
  response: { status: 200, headers: { 'Content-Type': 'application/json' }, jsonBody: { message: 'Hello from Mockyard' } },
};
