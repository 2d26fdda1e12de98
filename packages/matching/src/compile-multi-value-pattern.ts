import { compileContentPattern } from './compile-content-pattern';
import type { CompiledContentPattern } from './compiled-content-pattern';
import { describePattern } from './compiled-content-pattern';
import { joinPath, PatternError } from './pattern-error';

/** A pattern for a field that can repeat (query parameter, header, cookie, form parameter). */
export interface CompiledMultiValuePattern {
  readonly description: string;
  /** True when the pattern is `absent: true`. */
  readonly isAbsent: boolean;
  distance(values: readonly string[] | undefined): number;
}

/**
 * A plain ContentPattern matches when any value matches (best value wins); `hasExactly` wants as many
 * values as patterns with each pattern met; `includes` wants each pattern met by some value.
 */
export function compileMultiValuePattern(spec: unknown, path: string): CompiledMultiValuePattern {
  if (typeof spec === 'object' && spec !== null && !Array.isArray(spec)) {
    const object = spec as Record<string, unknown>;
    const multi = 'hasExactly' in object ? 'hasExactly' : 'includes' in object ? 'includes' : null;
    if (multi) {
      if (Object.keys(object).length !== 1) throw new PatternError(path, `${multi} cannot be combined with other operators`);
      const list = object[multi];
      if (!Array.isArray(list) || list.length === 0) throw new PatternError(joinPath(path, multi), `${multi} must be a non-empty array of match patterns`);
      const patterns = list.map((item, index) => compileContentPattern(item, joinPath(joinPath(path, multi), index)));
      return multi === 'hasExactly' ? hasExactly(patterns) : includes(patterns);
    }
  }
  const single = compileContentPattern(spec, path);
  return {
    description: describePattern(single),
    isAbsent: single.isAbsent,
    distance(values) {
      if (!values || values.length === 0) return single.distance(undefined);
      let best = 1;
      for (let i = 0; i < values.length; i++) {
        const d = single.distance(values[i]);
        if (d < best) best = d;
        if (best === 0) break;
      }
      return best;
    },
  };
}

/** Each pattern's best distance over all values (a value may serve several patterns, as in WireMock). */
function findBestDistances(patterns: CompiledContentPattern[], values: readonly string[]): number[] {
  return patterns.map((pattern) => {
    let best = 1;
    for (let i = 0; i < values.length && best > 0; i++) best = Math.min(best, pattern.distance(values[i]));
    return best;
  });
}

/** `hasExactly`: as many values as patterns, each pattern met by a value (WireMock: mean of both checks). */
function hasExactly(patterns: CompiledContentPattern[]): CompiledMultiValuePattern {
  return {
    description: `[hasExactly] ${patterns.map(describePattern).join(', ')}`,
    isAbsent: false,
    distance(values) {
      const list = values ?? [];
      const patternsDistance = findBestDistances(patterns, list).reduce((sum, d) => sum + d, 0) / patterns.length;
      const sizeDistance = list.length === patterns.length ? 0 : 1;
      if (patternsDistance === 0 && sizeDistance === 0) return 0;
      return Math.min(1, Math.max((patternsDistance + sizeDistance) / 2, 0.01));
    },
  };
}

/** `includes`: every pattern is met by some value (one value may meet several patterns). */
function includes(patterns: CompiledContentPattern[]): CompiledMultiValuePattern {
  return {
    description: `[includes] ${patterns.map(describePattern).join(', ')}`,
    isAbsent: false,
    distance(values) {
      const total = findBestDistances(patterns, values ?? []).reduce((sum, d) => sum + d, 0);
      return total === 0 ? 0 : Math.min(1, Math.max(total / patterns.length, 0.01));
    },
  };
}
