import { parseJavaDate } from './java-date-format';

/** Date arithmetic shared by the date matchers (before/after/equalToDateTime) and the template helpers. */

export type DateUnit = 'milliseconds' | 'seconds' | 'minutes' | 'hours' | 'days' | 'weeks' | 'months' | 'years';

const UNIT_ALIASES: Record<string, DateUnit> = {
  ms: 'milliseconds', millisecond: 'milliseconds', milliseconds: 'milliseconds',
  s: 'seconds', second: 'seconds', seconds: 'seconds',
  m: 'minutes', minute: 'minutes', minutes: 'minutes',
  h: 'hours', hour: 'hours', hours: 'hours',
  d: 'days', day: 'days', days: 'days',
  w: 'weeks', week: 'weeks', weeks: 'weeks',
  month: 'months', months: 'months',
  y: 'years', year: 'years', years: 'years',
};

export function parseDateUnit(unit: string): DateUnit | null {
  return UNIT_ALIASES[unit.trim().toLowerCase()] ?? null;
}

/** `'3 days'`, `'-1 hours'`, `'+2 months'` -> amount and unit; null when malformed. */
export function parseOffsetExpression(expression: string): { amount: number; unit: DateUnit } | null {
  const match = /^\s*([+-]?\s*\d+)\s*([A-Za-z]+)\s*$/.exec(expression);
  if (!match) return null;
  const unit = parseDateUnit(match[2]);
  return unit ? { amount: Number(match[1].replace(/\s/g, '')), unit } : null;
}

export function addToDate(date: Date, amount: number, unit: DateUnit): Date {
  const result = new Date(date.getTime());
  switch (unit) {
    case 'milliseconds': result.setTime(result.getTime() + amount); break;
    case 'seconds': result.setTime(result.getTime() + amount * 1000); break;
    case 'minutes': result.setTime(result.getTime() + amount * 60_000); break;
    case 'hours': result.setTime(result.getTime() + amount * 3_600_000); break;
    case 'days': result.setTime(result.getTime() + amount * 86_400_000); break;
    case 'weeks': result.setTime(result.getTime() + amount * 7 * 86_400_000); break;
    case 'months': result.setUTCMonth(result.getUTCMonth() + amount); break;
    case 'years': result.setUTCFullYear(result.getUTCFullYear() + amount); break;
  }
  return result;
}

export const TRUNCATIONS = [
  'first second of minute', 'first minute of hour', 'first hour of day', 'first day of month', 'first day of next month',
  'last day of month', 'first day of year', 'first day of next year', 'last day of year',
] as const;

/** WireMock's truncation names, computed in UTC. Returns null for an unknown name. */
export function truncateDate(date: Date, truncation: string): Date | null {
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth();
  switch (truncation.trim().toLowerCase()) {
    case 'first second of minute': return new Date(Date.UTC(y, m, date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes()));
    case 'first minute of hour': return new Date(Date.UTC(y, m, date.getUTCDate(), date.getUTCHours()));
    case 'first hour of day': return new Date(Date.UTC(y, m, date.getUTCDate()));
    case 'first day of month': return new Date(Date.UTC(y, m, 1));
    case 'first day of next month': return new Date(Date.UTC(y, m + 1, 1));
    case 'last day of month': return new Date(Date.UTC(y, m + 1, 0));
    case 'first day of year': return new Date(Date.UTC(y, 0, 1));
    case 'first day of next year': return new Date(Date.UTC(y + 1, 0, 1));
    case 'last day of year': return new Date(Date.UTC(y, 11, 31));
    default: return null;
  }
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?(?:\[[^\]]+\])?$/;

/**
 * Parses a date the way WireMock accepts one: ISO 8601 (zone optional -> UTC; date-only -> midnight UTC),
 * RFC 1123 (`Tue, 01 Jun 2021 15:16:17 GMT`), or with `format`: `epoch` (ms), `unix` (s) or a Java
 * pattern. Returns null when it cannot.
 */
export function parseDateText(text: string, format?: string): Date | null {
  const trimmed = text.trim();
  if (format) {
    if (format === 'epoch') return /^-?\d+$/.test(trimmed) ? new Date(Number(trimmed)) : null;
    if (format === 'unix') return /^-?\d+$/.test(trimmed) ? new Date(Number(trimmed) * 1000) : null;
    try {
      return parseJavaDate(trimmed, format);
    } catch {
      return null;
    }
  }
  const iso = ISO.exec(trimmed);
  if (iso) {
    const [, y, mo, d, h, mi, s, fraction, zone] = iso;
    let time = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0), Number((fraction ?? '0').padEnd(3, '0').slice(0, 3)));
    if (zone && zone !== 'Z') {
      const sign = zone.startsWith('-') ? -1 : 1;
      const digits = zone.slice(1).replace(':', '');
      time -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || 0)) * 60_000;
    }
    return Number.isNaN(time) ? null : new Date(time);
  }
  if (/^[A-Za-z]{3},\s+\d{1,2}\s+[A-Za-z]{3}\s+\d{4}\s+\d{2}:\d{2}:\d{2}\s+(GMT|UTC|[+-]\d{4})$/.test(trimmed)) {
    const time = Date.parse(trimmed);
    return Number.isNaN(time) ? null : new Date(time);
  }
  return null;
}

/**
 * An expected date in a stub: `now`, `now +3 days`, `now -1 hours`, or an absolute date. Returns a
 * function so `now` is evaluated at match time. Null when it cannot be read.
 */
export function compileExpectedDate(text: string): ((now: Date) => Date) | null {
  const trimmed = text.trim();
  const relative = /^now(?:\s*([+-]\s*\d+\s*[A-Za-z]+))?$/i.exec(trimmed);
  if (relative) {
    if (!relative[1]) return (now) => now;
    const offset = parseOffsetExpression(relative[1]);
    if (!offset) return null;
    return (now) => addToDate(now, offset.amount, offset.unit);
  }
  const fixed = parseDateText(trimmed);
  return fixed ? () => fixed : null;
}
