import { exceedsJsonNestingDepth } from './json-nesting-depth';
/**
 * A ContentPattern compiled once per stub. `distance` is the graded match WireMock uses: 0 means an
 * exact match, anything above 0 (up to 1) a miss, so near-misses come out of the same code.
 * `undefined` stands for an absent value (missing header, query parameter, JSON path result …).
 */
export interface CompiledContentPattern {
  /** The operator's JSON key: `equalTo`, `matchesJsonPath`, `and` … */
  readonly operator: string;
  /** The expected value as shown in diffs (`text/plain`, `/users/.*`, a JSON document …). */
  readonly expected: string;
  /** True for `absent: true`: the matcher wants the value missing. */
  readonly isAbsent: boolean;
  distance(value: string | undefined): number;
  /** Direct match of a parsed JSON value (equalToJson / matchesJsonPath sub-matchers avoid a re-parse). */
  distanceJson?(value: unknown): number;
  /** Byte-level match of a body (binaryEqualTo). */
  distanceBytes?(value: Buffer): number;
}

/** How a sub-matcher sees a JSON value: strings as-is, null/undefined as absent, the rest as JSON. */
export function jsonValueToText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export function distanceOfJsonValue(pattern: CompiledContentPattern, value: unknown): number {
  if (pattern.distanceJson) return pattern.distanceJson(value);
  return pattern.distance(jsonValueToText(value));
}

/** Shows an operator with its expected value the way WireMock's diff does (`[matches] /a.*`). */
export function describePattern(pattern: CompiledContentPattern): string {
  if (pattern.operator === 'equalTo') return pattern.expected;
  if (pattern.operator === 'absent') return '[absent]';
  return `[${pattern.operator}] ${pattern.expected}`;
}

let lastJsonText: string | undefined;
let lastJsonValue: unknown;
let lastJsonOk = false;

/**
 * JSON.parse with a one-entry cache (stubs look at the same body one after another); not ok if not JSON.
 * A body nested deeper than Jackson allows counts as not JSON (the recursive matchers would overflow).
 */
export function parseJsonCached(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text !== lastJsonText) {
    lastJsonText = text;
    try {
      if (exceedsJsonNestingDepth(text)) throw new Error('nested too deep');
      lastJsonValue = JSON.parse(text);
      lastJsonOk = true;
    } catch {
      lastJsonValue = undefined;
      lastJsonOk = false;
    }
  }
  return lastJsonOk ? { ok: true, value: lastJsonValue } : { ok: false };
}
