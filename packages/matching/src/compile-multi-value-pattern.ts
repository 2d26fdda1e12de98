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
 * A plain ContentPattern matches when any value matches (best value wins); `hasExactly` wants exactly
 * these values (each pattern met by a different value, no others); `includes` wants at least these.
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

function bestAssignment(patterns: CompiledContentPattern[], values: readonly string[]): { total: number; unmatched: number } {
  const used = new Uint8Array(values.length);
  let total = 0;
  let unmatched = 0;
  for (const pattern of patterns) {
    let best = 1;
    let bestIndex = -1;
    for (let j = 0; j < values.length; j++) {
      if (used[j]) continue;
      const d = pattern.distance(values[j]);
      if (d < best || bestIndex < 0) {
        best = d;
        bestIndex = j;
      }
      if (d === 0) break;
    }
    if (bestIndex >= 0) used[bestIndex] = 1;
    if (best > 0) unmatched++;
    total += best;
  }
  return { total, unmatched };
}

function hasExactly(patterns: CompiledContentPattern[]): CompiledMultiValuePattern {
  return {
    description: `[hasExactly] ${patterns.map(describePattern).join(', ')}`,
    isAbsent: false,
    distance(values) {
      const list = values ?? [];
      const { total, unmatched } = bestAssignment(patterns, list);
      const extra = Math.abs(list.length - patterns.length);
      if (unmatched === 0 && extra === 0) return 0;
      return Math.min(1, Math.max((total + extra) / Math.max(patterns.length, list.length), 0.01));
    },
  };
}

function includes(patterns: CompiledContentPattern[]): CompiledMultiValuePattern {
  return {
    description: `[includes] ${patterns.map(describePattern).join(', ')}`,
    isAbsent: false,
    distance(values) {
      const { total, unmatched } = bestAssignment(patterns, values ?? []);
      if (unmatched === 0) return 0;
      return Math.min(1, Math.max(total / patterns.length, 0.01));
    },
  };
}
