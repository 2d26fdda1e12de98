import { JSONPath } from 'jsonpath-plus';
import type { CompiledContentPattern } from './compiled-content-pattern';
import { distanceOfJsonValue, jsonValueToText, parseJsonCached } from './compiled-content-pattern';
import { findOperator } from './find-operator';
import { compileUserRegex } from './compile-user-regex';
import { PatternError } from './pattern-error';

type CompileFn = (spec: unknown, path: string) => CompiledContentPattern;

/**
 * Rewrites the Jayway JSONPath dialect WireMock users write into what jsonpath-plus evaluates:
 * `.size()`/`.length()` -> `.length`, `@.x =~ /re/i` -> `@.x.match(/^(?:re)$/i)`, `in`/`nin [..]` -> `[..].includes(@.x)`,
 * `empty true|false` and `size n` -> length checks.
 */
export function translateJsonPath(expression: string, path: string): string {
  let translated = expression.replace(/\.(size|length)\(\)/g, '.length');
  translated = translated.replace(/(@[\w.$[\]'"-]*)\s*=~\s*\/((?:\\\/|[^/])+)\/([a-z]*)/g, (_whole, subject: string, source: string, flags: string) => {
    const check = compileUserRegex(source);
    if (!check.ok) throw new PatternError(path, check.message);
    return `${subject}.match(/^(?:${source})$/${flags})`; // Jayway =~ matches the whole value
  });
  // Any other regex literal in a filter (e.g. `.match(/…/)`) must pass the same safety gate.
  for (const literal of translated.matchAll(/\/((?:\\\/|[^/\n])+)\/[a-z]*/g)) {
    const check = compileUserRegex(literal[1]);
    if (!check.ok && check.message.includes('catastrophically')) throw new PatternError(path, check.message);
  }
  translated = translated.replace(/(@[\w.$[\]'"-]*?)\s+(nin|in)\s+(\[[^\]]*\])/g, (_whole, subject: string, operator: string, list: string) => `${operator === 'nin' ? '!' : ''}${list}.includes(${subject})`);
  translated = translated.replace(/(@[\w.$[\]'"-]*?)\s+empty\s+(true|false)/g, (_whole, subject: string, flag: string) => `(${subject}.length ${flag === 'true' ? '==' : '>'} 0)`);
  translated = translated.replace(/(@[\w.$[\]'"-]*?)\s+size\s+(\d+)/g, (_whole, subject: string, size: string) => `(${subject}.length == ${size})`);
  return translated;
}

export interface JsonPathQuery {
  /** Every value the expression selects ([] when none). */
  select(json: unknown): unknown[];
  /** True when the expression can select several values (filters, wildcards, deep scan, unions, slices). */
  isIndefinite: boolean;
}

const queryCache = new Map<string, JsonPathQuery>();

/** Compiles (and caches by expression) a JSONPath query; throws PatternError naming `path`. */
export function compileJsonPathQuery(expression: string, path: string): JsonPathQuery {
  const cached = queryCache.get(expression);
  if (cached) return cached;
  const query = buildJsonPathQuery(expression, path);
  if (queryCache.size >= 2000) queryCache.clear();
  queryCache.set(expression, query);
  return query;
}

function buildJsonPathQuery(expression: string, path: string): JsonPathQuery {
  if (!expression.startsWith('$') && !expression.startsWith('@')) throw new PatternError(path, `JSONPath must start with '$': ${expression}`);
  const translated = translateJsonPath(expression, path);
  const isRootFilter = /^\$\[\?\(/.test(translated);
  try {
    JSONPath.toPathArray(translated);
  } catch (error) {
    throw new PatternError(path, `invalid JSONPath ${expression}: ${(error as Error).message}`);
  }
  return {
    isIndefinite: /\[\?|\.\.|\*|,|:/.test(translated),
    select(json: unknown): unknown[] {
      // Jayway applies a root filter ($[?(...)]) to the root object itself.
      const target = isRootFilter && json !== null && typeof json === 'object' && !Array.isArray(json) ? [json] : json;
      try {
        const result = JSONPath({ path: translated, json: target as object, wrap: true, eval: 'safe', ignoreEvalErrors: true });
        return Array.isArray(result) ? result : [];
      } catch {
        return [];
      }
    },
  };
}

/** `matchesJsonPath`: a string expression, or `{expression, <one sub-matcher>}`. */
export function compileJsonPathPattern(value: unknown, path: string, compile: CompileFn): CompiledContentPattern {
  let expression: string;
  let sub: CompiledContentPattern | null = null;
  if (typeof value === 'string') expression = value;
  else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const spec = value as Record<string, unknown>;
    if (typeof spec.expression !== 'string') throw new PatternError(`${path}.expression`, 'matchesJsonPath needs an expression string');
    expression = spec.expression;
    const rest = { ...spec };
    delete rest.expression;
    if (Object.keys(rest).length > 0) {
      findOperator(rest, path);
      sub = compile(rest, path);
    }
  } else throw new PatternError(path, 'matchesJsonPath must be a string or {"expression": ..., <matcher>}');
  const query = compileJsonPathQuery(expression, path);
  const matchJson = (json: unknown): number => {
    const results = query.select(json);
    // as WireMock: a definite path matches when its value is there and is not null, [] or {}; an indefinite one
    // when it selects anything
    if (!sub) return (query.isIndefinite ? results.length > 0 : isPresentValue(results[0])) ? 0 : 1;
    if (results.length === 0) return sub.distance(undefined);
    if (!query.isIndefinite || results.length === 1) {
      const single = query.isIndefinite ? results : results[0];
      const direct = distanceOfJsonValue(sub, single);
      if (direct === 0 || !query.isIndefinite) return direct;
    }
    let best = distanceOfJsonValue(sub, results);
    for (const item of results) {
      if (best === 0) break;
      best = Math.min(best, sub.distance(jsonValueToText(item)));
    }
    return best;
  };
  const expected = sub ? `${expression} [${sub.operator}] ${sub.expected}` : expression;
  return {
    operator: 'matchesJsonPath', expected, isAbsent: false,
    distanceJson: (json) => (json === undefined ? 1 : matchJson(json)),
    distance: (actual) => {
      if (actual === undefined) return 1;
      const parsed = parseJsonCached(actual);
      return parsed.ok ? matchJson(parsed.value) : 1;
    },
  };
}

function isPresentValue(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}
