import { compileContentPattern } from './compile-content-pattern';
import type { CompiledContentPattern } from './compiled-content-pattern';
import { describePattern } from './compiled-content-pattern';
import type { CompiledMultiValuePattern } from './compile-multi-value-pattern';
import { compileMultiValuePattern } from './compile-multi-value-pattern';
import type { MultipartPart } from './parse-multipart';
import { joinPath, PatternError } from './pattern-error';

const KEYS = new Set(['name', 'filename', 'matchingType', 'headers', 'bodyPatterns']);

/** One entry of `multipartPatterns`: which parts must look how. */
export interface CompiledMultipartPattern {
  readonly description: string;
  distance(parts: readonly MultipartPart[]): number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `{name, filename, matchingType: ANY|ALL, headers, bodyPatterns}`: with ANY (the default) some part must
 * satisfy every check, with ALL every part must.
 */
export function compileMultipartPattern(spec: unknown, path: string): CompiledMultipartPattern {
  if (!isRecord(spec)) throw new PatternError(path, 'a multipart pattern must be an object');
  for (const key of Object.keys(spec)) if (!KEYS.has(key)) throw new PatternError(joinPath(path, key), `unrecognised field '${key}' in a multipart pattern`);
  const matchingType = spec.matchingType ?? 'ANY';
  if (matchingType !== 'ANY' && matchingType !== 'ALL') throw new PatternError(joinPath(path, 'matchingType'), 'matchingType must be ANY or ALL');
  if (spec.name !== undefined && typeof spec.name !== 'string') throw new PatternError(joinPath(path, 'name'), 'name must be a string');
  const name = spec.name as string | undefined;
  const filename = spec.filename === undefined ? undefined : compileContentPattern(typeof spec.filename === 'string' ? { equalTo: spec.filename } : spec.filename, joinPath(path, 'filename'));
  const headers: { key: string; pattern: CompiledMultiValuePattern }[] = [];
  if (spec.headers !== undefined) {
    if (!isRecord(spec.headers)) throw new PatternError(joinPath(path, 'headers'), 'headers must be an object of name -> match pattern');
    for (const [header, headerSpec] of Object.entries(spec.headers)) headers.push({ key: header.toLowerCase(), pattern: compileMultiValuePattern(headerSpec, joinPath(joinPath(path, 'headers'), header)) });
  }
  const bodyPatterns: CompiledContentPattern[] = [];
  if (spec.bodyPatterns !== undefined) {
    if (!Array.isArray(spec.bodyPatterns)) throw new PatternError(joinPath(path, 'bodyPatterns'), 'bodyPatterns must be an array of match patterns');
    spec.bodyPatterns.forEach((item, index) => bodyPatterns.push(compileContentPattern(item, joinPath(joinPath(path, 'bodyPatterns'), index))));
  }
  const partDistance = (part: MultipartPart): number => {
    let sum = 0;
    let count = 0;
    if (name !== undefined) {
      sum += part.name === name ? 0 : 1;
      count++;
    }
    if (filename) {
      sum += filename.distance(part.filename);
      count++;
    }
    for (const header of headers) {
      sum += header.pattern.distance(part.headers[header.key]);
      count++;
    }
    if (bodyPatterns.length > 0) {
      const text = part.body.toString('utf8');
      for (const pattern of bodyPatterns) {
        sum += pattern.distanceBytes ? pattern.distanceBytes(part.body) : pattern.distance(text);
        count++;
      }
    }
    return count === 0 || sum === 0 ? 0 : Math.max(sum / count, 0.001);
  };
  const checks = [name !== undefined ? `name=${name}` : '', filename ? `filename ${describePattern(filename)}` : '', ...headers.map((h) => `${h.key}: ${h.pattern.description}`), ...bodyPatterns.map(describePattern)].filter(Boolean);
  return {
    description: `[${matchingType}] ${checks.join('; ')}`,
    distance(parts) {
      if (parts.length === 0) return 1;
      if (matchingType === 'ANY') {
        let best = 1;
        for (const part of parts) {
          best = Math.min(best, partDistance(part));
          if (best === 0) break;
        }
        return best;
      }
      const sum = parts.reduce((total, part) => total + partDistance(part), 0);
      return sum === 0 ? 0 : Math.max(sum / parts.length, 0.001);
    },
  };
}
