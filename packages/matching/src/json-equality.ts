import { compileUserRegex } from './compile-user-regex';
import { PatternError } from './pattern-error';

/** Upper bound on item pairs compared when array order is ignored (keeps huge arrays linear-ish). */
const MAX_PAIRINGS = 250_000;

export interface JsonEqualityOptions {
  ignoreArrayOrder: boolean;
  ignoreExtraElements: boolean;
}

const PLACEHOLDERS = new Set(['${json-unit.ignore}', '${json-unit.ignore-element}', '${json-unit.any-string}', '${json-unit.any-number}', '${json-unit.any-boolean}']);

/** Checks json-unit placeholders in an expected document (regex placeholders must compile safely). */
export function checkJsonPlaceholders(expected: unknown, path: string): void {
  if (typeof expected === 'string') {
    if (expected.startsWith('${json-unit.regex}')) {
      const check = compileUserRegex(expected.slice('${json-unit.regex}'.length));
      if (!check.ok) throw new PatternError(path, check.message);
    } else if (expected.startsWith('${json-unit.') && !PLACEHOLDERS.has(expected)) {
      throw new PatternError(path, `unknown json-unit placeholder ${expected}`);
    }
  } else if (Array.isArray(expected)) expected.forEach((item) => checkJsonPlaceholders(item, path));
  else if (expected !== null && typeof expected === 'object') for (const value of Object.values(expected)) checkJsonPlaceholders(value, path);
}

/**
 * Compares an expected JSON document (with json-unit placeholders) to an actual one and grades it like
 * WireMock: differences / the larger document's size, where a size counts each object field as its key
 * plus its value's size, an array as 1 plus its items, a scalar as 1; a wrong scalar is 1 difference, a
 * missing or extra field or array item the size of its value. 0 when equal under the options.
 */
export function measureJsonDistance(expected: unknown, actual: unknown, options: JsonEqualityOptions): number {
  const diffs = countDifferences(expected, actual, options);
  if (diffs === 0) return 0;
  return Math.min(1, Math.max(diffs / Math.max(measureSize(expected), measureSize(actual), 1), 0.001));
}

function matchPlaceholder(expected: string, actual: unknown): boolean | undefined {
  if (!expected.startsWith('${json-unit.')) return undefined;
  if (expected === '${json-unit.ignore}' || expected === '${json-unit.ignore-element}') return true;
  if (expected === '${json-unit.any-string}') return typeof actual === 'string';
  if (expected === '${json-unit.any-number}') return typeof actual === 'number';
  if (expected === '${json-unit.any-boolean}') return typeof actual === 'boolean';
  if (expected.startsWith('${json-unit.regex}')) {
    const check = compileUserRegex(expected.slice('${json-unit.regex}'.length));
    if (!check.ok) return false;
    const text = typeof actual === 'string' || typeof actual === 'number' || typeof actual === 'boolean' ? String(actual) : undefined;
    return text !== undefined && check.regex.test(text);
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function measureSize(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + measureSize(item), 1);
  if (isObject(value)) return Object.values(value).reduce((sum: number, item) => sum + 1 + measureSize(item), 0);
  return 1;
}

function countDifferences(expected: unknown, actual: unknown, options: JsonEqualityOptions): number {
  if (typeof expected === 'string') {
    const placeholder = matchPlaceholder(expected, actual);
    if (placeholder !== undefined) return placeholder ? 0 : 1;
  }
  if (Array.isArray(expected)) return Array.isArray(actual) ? countArrayDifferences(expected, actual, options) : 1;
  if (isObject(expected)) {
    if (!isObject(actual)) return 1;
    let diffs = 0;
    for (const [key, value] of Object.entries(expected)) {
      if (Object.hasOwn(actual, key)) diffs += countDifferences(value, actual[key], options);
      // `${json-unit.ignore}` ignores the value of a field that is there; only `-element` lets it be missing
      else if (value !== '${json-unit.ignore-element}') diffs += measureSize(value);
    }
    if (!options.ignoreExtraElements) {
      for (const key of Object.keys(actual)) if (!Object.hasOwn(expected, key)) diffs += measureSize(actual[key]);
    }
    return diffs;
  }
  return expected === actual ? 0 : 1;
}

function countArrayDifferences(expected: unknown[], actual: unknown[], options: JsonEqualityOptions): number {
  let diffs = 0;
  if (!options.ignoreArrayOrder) {
    for (let i = 0; i < expected.length; i++) diffs += i < actual.length ? countDifferences(expected[i], actual[i], options) : measureSize(expected[i]);
    if (!options.ignoreExtraElements) for (let i = expected.length; i < actual.length; i++) diffs += measureSize(actual[i]);
    return diffs;
  }
  // Order ignored: first pair items that are identical (linear, via a canonical form), then pair each
  // remaining expected item with the unused actual item that differs least.
  const used = new Uint8Array(actual.length);
  const byCanonical = new Map<string, number[]>();
  actual.forEach((item, index) => {
    const key = toCanonicalJson(item);
    const list = byCanonical.get(key);
    if (list) list.push(index);
    else byCanonical.set(key, [index]);
  });
  const remaining: unknown[] = [];
  for (const item of expected) {
    const key = toCanonicalJson(item);
    const candidates = key.includes('${json-unit.') ? undefined : byCanonical.get(key);
    const index = candidates?.pop();
    if (index === undefined) remaining.push(item);
    else used[index] = 1;
  }
  // The pairwise search is quadratic: past this many pairs, unpaired items just count as different.
  if (remaining.length * actual.length > MAX_PAIRINGS) {
    for (const item of remaining) diffs += measureSize(item);
    if (!options.ignoreExtraElements) for (let j = 0; j < actual.length; j++) if (!used[j]) diffs += measureSize(actual[j]);
    return diffs;
  }
  for (const item of remaining) {
    let best = -1;
    let bestDiffs = Infinity;
    for (let j = 0; j < actual.length && bestDiffs > 0; j++) {
      if (used[j]) continue;
      const candidate = countDifferences(item, actual[j], options);
      if (candidate < bestDiffs) {
        best = j;
        bestDiffs = candidate;
      }
    }
    if (best < 0) diffs += measureSize(item);
    else {
      used[best] = 1;
      diffs += bestDiffs;
    }
  }
  if (!options.ignoreExtraElements) for (let j = 0; j < actual.length; j++) if (!used[j]) diffs += measureSize(actual[j]);
  return diffs;
}

/** JSON text with object keys sorted, so equal documents give equal strings. */
function toCanonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(toCanonicalJson).join(',')}]`;
  if (isObject(value)) return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${toCanonicalJson(value[key])}`).join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}
