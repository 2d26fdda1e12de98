import type { WireRequest } from '../api/hub-schemas';
import { MethodPatternSchema } from '@mockyard/contracts';
import { splitPathAndQuery } from './exchange-to-stub';
import { describeMethod, methodMatches } from './stub-list';

export type Difference = { field: string; expected: string; actual: string };

/**
 * What differed between an unmatched request and a near-miss stub's request pattern, for the parts a
 * person checks first: method, URL rule, query parameters and headers with simple operators.
 */
export function explainNearMiss(request: WireRequest, pattern: Record<string, unknown> | undefined): Difference[] {
  if (!pattern) return [];
  const differences: Difference[] = [];
  const parsedMethod = MethodPatternSchema.safeParse(pattern.method);
  const method = parsedMethod.success ? parsedMethod.data : undefined;
  if (!methodMatches(method, request.method ?? '')) {
    differences.push({ field: 'method', expected: describeMethod(method), actual: request.method ?? '' });
  }
  const url = request.url ?? '/';
  const { path, query } = splitPathAndQuery(url);
  const urlChecks: Array<[string, (rule: string) => boolean]> = [
    ['url', (rule) => rule === url],
    ['urlPath', (rule) => rule === path],
    ['urlPattern', (rule) => testRegex(rule, url)],
    ['urlPathPattern', (rule) => testRegex(rule, path)],
    ['urlPathTemplate', (rule) => testRegex(`^${rule.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+').replace(/\{[^}]+\}/g, '[^/]+')}$`, path)],
  ];
  for (const [key, test] of urlChecks) {
    const rule = pattern[key];
    if (typeof rule === 'string' && !test(rule)) differences.push({ field: key, expected: rule, actual: key.startsWith('urlPath') ? path : url });
  }
  const queryParameters = pattern.queryParameters as Record<string, Record<string, unknown>> | undefined;
  for (const [name, matcher] of Object.entries(queryParameters ?? {})) {
    const actual = query.find(([key]) => key === name)?.[1];
    const difference = compareValue(`query ${name}`, matcher, actual);
    if (difference) differences.push(difference);
  }
  const headers = pattern.headers as Record<string, Record<string, unknown>> | undefined;
  for (const [name, matcher] of Object.entries(headers ?? {})) {
    const found = Object.entries(request.headers ?? {}).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
    const actual = Array.isArray(found) ? found.join(', ') : found === undefined ? undefined : String(found);
    const difference = compareValue(`header ${name}`, matcher, actual);
    if (difference) differences.push(difference);
  }
  return differences;
}

function compareValue(field: string, matcher: Record<string, unknown>, actual: string | undefined): Difference | undefined {
  const shown = actual ?? '(absent)';
  if (matcher.absent === true) return actual === undefined ? undefined : { field, expected: 'absent', actual: shown };
  if (typeof matcher.equalTo === 'string') {
    const isEqual = matcher.caseInsensitive ? actual?.toLowerCase() === matcher.equalTo.toLowerCase() : actual === matcher.equalTo;
    return isEqual ? undefined : { field, expected: `equalTo ${matcher.equalTo}`, actual: shown };
  }
  if (typeof matcher.contains === 'string') return actual?.includes(matcher.contains) ? undefined : { field, expected: `contains ${matcher.contains}`, actual: shown };
  if (typeof matcher.matches === 'string') return actual !== undefined && testRegex(matcher.matches, actual) ? undefined : { field, expected: `matches ${matcher.matches}`, actual: shown };
  return actual === undefined ? { field, expected: JSON.stringify(matcher), actual: shown } : undefined;
}

function testRegex(source: string, value: string): boolean {
  try {
    return new RegExp(`^(?:${source})$`).test(value);
  } catch {
    return false;
  }
}

/**
 * A stub that would have matched the unmatched request: its method and exact URL, answering like the
 * nearest stub did (or 200 with an empty body when there was none).
 */
export function buildStubForUnmatched(request: WireRequest, nearest?: { response?: Record<string, unknown>; priority?: number }): Record<string, unknown> {
  const method = (request.method ?? 'GET').toUpperCase();
  const url = request.url ?? '/';
  return {
    name: `${method} ${url}`,
    priority: Math.max(1, (nearest?.priority ?? 5) - 1),
    request: { method, url },
    response: nearest?.response ?? { status: 200, body: '' },
  };
}
