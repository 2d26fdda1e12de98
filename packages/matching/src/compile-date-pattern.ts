import type { CompiledContentPattern } from './compiled-content-pattern';
import { addToDate, compileExpectedDate, parseDateText, parseDateUnit, truncateDate } from './date-time';
import { parseJavaDate } from './java-date-format';
import { joinPath, PatternError } from './pattern-error';

function optionalString(spec: Record<string, unknown>, key: string, path: string): string | undefined {
  const value = spec[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new PatternError(joinPath(path, key), `${key} must be a string`);
  return value;
}

/**
 * `before` / `after` / `equalToDateTime`: the expected value is `now`, `now +3 days` or an ISO date,
 * moved by `expectedOffset` `expectedOffsetUnit`, optionally truncated (`first day of month` …);
 * the actual value is parsed as ISO/RFC 1123 or with `actualFormat` (Java pattern, `epoch`, `unix`).
 */
export function compileDatePattern(operator: 'before' | 'after' | 'equalToDateTime', spec: Record<string, unknown>, expectedText: string, path: string): CompiledContentPattern {
  const expectedDate = compileExpectedDate(expectedText);
  if (!expectedDate) throw new PatternError(joinPath(path, operator), `${operator} must be 'now', 'now +3 days' or an ISO 8601 date-time, got ${JSON.stringify(expectedText)}`);
  const actualFormat = optionalString(spec, 'actualFormat', path);
  const truncateExpected = optionalString(spec, 'truncateExpected', path);
  const truncateActual = optionalString(spec, 'truncateActual', path);
  for (const [key, truncation] of [['truncateExpected', truncateExpected], ['truncateActual', truncateActual]] as const) {
    if (truncation !== undefined && !truncateDate(new Date(0), truncation)) throw new PatternError(joinPath(path, key), `unknown truncation ${JSON.stringify(truncation)}`);
  }
  const offset = spec.expectedOffset;
  if (offset !== undefined && (typeof offset !== 'number' || !Number.isInteger(offset))) throw new PatternError(joinPath(path, 'expectedOffset'), 'expectedOffset must be an integer');
  const unitText = optionalString(spec, 'expectedOffsetUnit', path);
  const unit = unitText === undefined ? 'days' : parseDateUnit(unitText);
  if (!unit) throw new PatternError(joinPath(path, 'expectedOffsetUnit'), `unknown expectedOffsetUnit ${JSON.stringify(unitText)}`);
  if (actualFormat && actualFormat !== 'epoch' && actualFormat !== 'unix') {
    try {
      parseJavaDate('', actualFormat);
    } catch (error) {
      throw new PatternError(joinPath(path, 'actualFormat'), (error as Error).message);
    }
  }
  const resolveExpected = (): Date => {
    let date = expectedDate(new Date());
    if (typeof offset === 'number') date = addToDate(date, offset, unit);
    if (truncateExpected) date = truncateDate(date, truncateExpected) ?? date;
    return date;
  };
  return {
    operator, expected: expectedText, isAbsent: false,
    distance: (actual) => {
      if (actual === undefined) return 1;
      let actualDate = parseDateText(actual, actualFormat);
      if (!actualDate) return 1;
      if (truncateActual) actualDate = truncateDate(actualDate, truncateActual) ?? actualDate;
      const difference = actualDate.getTime() - resolveExpected().getTime();
      const isMatch = operator === 'before' ? difference < 0 : operator === 'after' ? difference > 0 : difference === 0;
      return isMatch ? 0 : 1;
    },
  };
}
