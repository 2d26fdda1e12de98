import { compileUserRegex } from './compile-user-regex';
import { PatternError } from './pattern-error';

export interface JsonEqualityOptions {
  ignoreArrayOrder: boolean;
  ignoreExtraElements: boolean;
}

interface Tally {
  diffs: number;
  nodes: number;
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
 * Compares an expected JSON document (with json-unit placeholders) to an actual one. Returns the
 * distance: differing nodes / nodes compared, 0 when equal under the options.
 */
export function jsonDistance(expected: unknown, actual: unknown, options: JsonEqualityOptions): number {
  const tally: Tally = { diffs: 0, nodes: 0 };
  compare(expected, actual, options, tally);
  if (tally.diffs === 0) return 0;
  return Math.min(1, Math.max(tally.diffs / Math.max(tally.nodes, 1), 0.01));
}

function placeholderMatches(expected: string, actual: unknown): boolean | undefined {
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

function countNodes(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + countNodes(item), 1);
  if (value !== null && typeof value === 'object') return Object.values(value).reduce((sum: number, item) => sum + countNodes(item), 1);
  return 1;
}

function compare(expected: unknown, actual: unknown, options: JsonEqualityOptions, tally: Tally): void {
  if (typeof expected === 'string') {
    const placeholder = placeholderMatches(expected, actual);
    if (placeholder !== undefined) {
      tally.nodes++;
      if (!placeholder) tally.diffs++;
      return;
    }
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) {
      const size = countNodes(expected);
      tally.nodes += size;
      tally.diffs += size;
      return;
    }
    tally.nodes++;
    compareArrays(expected, actual, options, tally);
    return;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      const size = countNodes(expected);
      tally.nodes += size;
      tally.diffs += size;
      return;
    }
    tally.nodes++;
    const actualObject = actual as Record<string, unknown>;
    for (const [key, value] of Object.entries(expected)) {
      if (!Object.prototype.hasOwnProperty.call(actualObject, key)) {
        if (value === '${json-unit.ignore-element}' || value === '${json-unit.ignore}') {
          tally.nodes++;
          continue;
        }
        const size = countNodes(value);
        tally.nodes += size;
        tally.diffs += size;
        continue;
      }
      compare(value, actualObject[key], options, tally);
    }
    if (!options.ignoreExtraElements) {
      for (const key of Object.keys(actualObject)) {
        if (!Object.prototype.hasOwnProperty.call(expected, key)) {
          tally.nodes++;
          tally.diffs++;
        }
      }
    }
    return;
  }
  tally.nodes++;
  if (expected !== actual) tally.diffs++;
}

function compareArrays(expected: unknown[], actual: unknown[], options: JsonEqualityOptions, tally: Tally): void {
  const extra = actual.length - expected.length;
  if (extra > 0 && !options.ignoreExtraElements) {
    tally.nodes += extra;
    tally.diffs += extra;
  }
  if (!options.ignoreArrayOrder) {
    for (let i = 0; i < expected.length; i++) {
      if (i < actual.length) compare(expected[i], actual[i], options, tally);
      else {
        const size = countNodes(expected[i]);
        tally.nodes += size;
        tally.diffs += size;
      }
    }
    return;
  }
  // Order ignored: pair each expected element with the unused actual element that differs least.
  const used = new Uint8Array(actual.length);
  for (const item of expected) {
    let best = -1;
    let bestTally: Tally | null = null;
    for (let j = 0; j < actual.length; j++) {
      if (used[j]) continue;
      const candidate: Tally = { diffs: 0, nodes: 0 };
      compare(item, actual[j], options, candidate);
      if (bestTally === null || candidate.diffs < bestTally.diffs) {
        best = j;
        bestTally = candidate;
        if (candidate.diffs === 0) break;
      }
    }
    if (bestTally === null) {
      const size = countNodes(item);
      tally.nodes += size;
      tally.diffs += size;
      continue;
    }
    used[best] = 1;
    tally.nodes += bestTally.nodes;
    tally.diffs += bestTally.diffs;
  }
}
