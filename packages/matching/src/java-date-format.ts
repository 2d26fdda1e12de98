/**
 * Java DateTimeFormatter-style patterns (`yyyy-MM-dd'T'HH:mm:ss.SSSXXX`), which WireMock stubs and
 * templates use, for formatting and parsing. Supported letters: y u M L d D E a H k h K m s S Z X x z V
 * and quoted literals; other letters raise an error naming the letter.
 */

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

interface Token {
  letter: string;
  count: number;
  literal?: string;
}

const tokenCache = new Map<string, Token[]>();

function tokenize(pattern: string): Token[] {
  const cached = tokenCache.get(pattern);
  if (cached) return cached;
  const tokens: Token[] = [];
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === "'") {
      const end = pattern.indexOf("'", i + 1);
      if (end === i + 1) {
        tokens.push({ letter: '', count: 0, literal: "'" });
        i += 2;
        continue;
      }
      if (end < 0) throw new Error(`unterminated quote in date format ${JSON.stringify(pattern)}`);
      tokens.push({ letter: '', count: 0, literal: pattern.slice(i + 1, end) });
      i = end + 1;
    } else if (/[A-Za-z]/.test(c)) {
      let j = i;
      while (j < pattern.length && pattern[j] === c) j++;
      if (!'yuMLdDEaHkhKmsSZXxzVn'.includes(c)) throw new Error(`unsupported letter '${c}' in date format ${JSON.stringify(pattern)}`);
      tokens.push({ letter: c, count: j - i });
      i = j;
    } else {
      tokens.push({ letter: '', count: 0, literal: c });
      i++;
    }
  }
  if (tokenCache.size > 500) tokenCache.clear();
  tokenCache.set(pattern, tokens);
  return tokens;
}

interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  weekday: number;
  offsetMinutes: number;
}

const zoneFormatters = new Map<string, Intl.DateTimeFormat>();

/** Wall-clock fields of `date` in an IANA zone (or `UTC`, `GMT`, `+02:00`). */
function fieldsIn(date: Date, timeZone: string | undefined): Fields {
  const fixed = timeZone ? parseOffset(timeZone) : 0;
  if (fixed !== null) {
    const shifted = new Date(date.getTime() + fixed * 60_000);
    return {
      year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate(), hour: shifted.getUTCHours(),
      minute: shifted.getUTCMinutes(), second: shifted.getUTCSeconds(), millisecond: shifted.getUTCMilliseconds(), weekday: shifted.getUTCDay(), offsetMinutes: fixed,
    };
  }
  let formatter = zoneFormatters.get(timeZone!);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    zoneFormatters.set(timeZone!, formatter);
  }
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(date)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  const wallUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  const offsetMinutes = Math.round((wallUtc - (date.getTime() - date.getUTCMilliseconds())) / 60_000);
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second, millisecond: date.getUTCMilliseconds(), weekday: new Date(wallUtc).getUTCDay(), offsetMinutes };
}

/** `Z`, `UTC`, `GMT`, `+02:00`, `-0530`, `UTC+2` -> minutes; null when it is an IANA name. */
export function parseOffset(zone: string): number | null {
  if (zone === 'Z' || zone === 'UTC' || zone === 'GMT' || zone === 'UT') return 0;
  const match = /^(?:UTC|GMT)?([+-])(\d{1,2}):?(\d{2})?$/.exec(zone);
  if (!match) return null;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '-' ? -minutes : minutes;
}

/** Throws RangeError for an unknown zone name. */
export function assertTimeZone(zone: string): void {
  if (parseOffset(zone) === null) new Intl.DateTimeFormat('en-US', { timeZone: zone });
}

function pad(value: number, width: number): string {
  return String(Math.abs(value)).padStart(width, '0');
}

function formatOffset(minutes: number, colon: boolean, zeroAsZ: boolean, withMinutes = true): string {
  if (minutes === 0 && zeroAsZ) return 'Z';
  const sign = minutes < 0 ? '-' : '+';
  const hours = pad(Math.floor(Math.abs(minutes) / 60), 2);
  if (!withMinutes) return `${sign}${hours}`;
  return `${sign}${hours}${colon ? ':' : ''}${pad(Math.abs(minutes) % 60, 2)}`;
}

export function formatJavaDate(date: Date, pattern: string, timeZone?: string): string {
  const f = fieldsIn(date, timeZone);
  let out = '';
  for (const token of tokenize(pattern)) {
    if (token.literal !== undefined) {
      out += token.literal;
      continue;
    }
    const n = token.count;
    switch (token.letter) {
      case 'y': case 'u': out += n === 2 ? pad(f.year % 100, 2) : pad(f.year, n); break;
      case 'M': case 'L': out += n >= 4 ? MONTHS[f.month - 1] : n === 3 ? MONTHS[f.month - 1].slice(0, 3) : pad(f.month, n); break;
      case 'd': out += pad(f.day, n); break;
      case 'D': out += pad(Math.floor((Date.UTC(f.year, f.month - 1, f.day) - Date.UTC(f.year, 0, 1)) / 86_400_000) + 1, n); break;
      case 'E': out += n >= 4 ? DAYS[f.weekday] : DAYS[f.weekday].slice(0, 3); break;
      case 'a': out += f.hour < 12 ? 'AM' : 'PM'; break;
      case 'H': out += pad(f.hour, n); break;
      case 'k': out += pad(f.hour === 0 ? 24 : f.hour, n); break;
      case 'h': out += pad(f.hour % 12 === 0 ? 12 : f.hour % 12, n); break;
      case 'K': out += pad(f.hour % 12, n); break;
      case 'm': out += pad(f.minute, n); break;
      case 's': out += pad(f.second, n); break;
      case 'S': out += pad(f.millisecond, 3).padEnd(n, '0').slice(0, n); break;
      case 'n': out += String(f.millisecond * 1_000_000); break;
      case 'Z': out += n >= 4 ? (f.offsetMinutes === 0 ? 'Z' : formatOffset(f.offsetMinutes, true, false)) : formatOffset(f.offsetMinutes, false, false); break;
      case 'X': out += formatOffset(f.offsetMinutes, n >= 3, true, n !== 1); break;
      case 'x': out += formatOffset(f.offsetMinutes, n >= 3, false, n !== 1); break;
      case 'z': out += f.offsetMinutes === 0 ? (n >= 4 ? 'Coordinated Universal Time' : 'UTC') : formatOffset(f.offsetMinutes, true, false); break;
      case 'V': out += timeZone ?? 'UTC'; break;
    }
  }
  return out;
}

const parseCache = new Map<string, { regex: RegExp; groups: Token[] }>();

/** Parses `text` with a Java pattern; a missing zone means UTC. Returns null when it does not fit. */
export function parseJavaDate(text: string, pattern: string): Date | null {
  let compiled = parseCache.get(pattern);
  if (!compiled) {
    const groups: Token[] = [];
    let source = '';
    for (const token of tokenize(pattern)) {
      if (token.literal !== undefined) {
        source += token.literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        continue;
      }
      groups.push(token);
      const n = token.count;
      switch (token.letter) {
        case 'M': case 'L': source += n >= 3 ? '([A-Za-z]+)' : n === 2 ? '(\\d{2})' : '(\\d{1,2})'; break;
        case 'E': case 'z': case 'V': source += '([A-Za-z/_]+)'; break;
        case 'a': source += '(AM|PM|am|pm)'; break;
        case 'Z': case 'X': case 'x': source += '(Z|[+-]\\d{2}(?::?\\d{2})?)'; break;
        case 'S': case 'n': source += '(\\d+)'; break;
        case 'y': case 'u': source += n === 2 ? '(\\d{2})' : '(\\d{4})'; break;
        default: source += n === 1 ? '(\\d{1,3})' : `(\\d{${n}})`;
      }
    }
    compiled = { regex: new RegExp(`^${source}$`), groups };
    parseCache.set(pattern, compiled);
  }
  const match = compiled.regex.exec(text.trim());
  if (!match) return null;
  let year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, millisecond = 0, offset = 0, pm: boolean | null = null;
  compiled.groups.forEach((token, index) => {
    const value = match[index + 1];
    switch (token.letter) {
      case 'y': case 'u': year = token.count === 2 ? 2000 + Number(value) : Number(value); break;
      case 'M': case 'L': month = token.count >= 3 ? MONTHS.findIndex((m) => m.toLowerCase().startsWith(value.toLowerCase().slice(0, 3))) + 1 : Number(value); break;
      case 'd': day = Number(value); break;
      case 'H': case 'k': hour = Number(value) % 24; break;
      case 'h': case 'K': hour = Number(value) % 12; break;
      case 'a': pm = value.toUpperCase() === 'PM'; break;
      case 'm': minute = Number(value); break;
      case 's': second = Number(value); break;
      case 'S': millisecond = Number(value.padEnd(3, '0').slice(0, 3)); break;
      case 'Z': case 'X': case 'x': case 'z': offset = parseOffset(value) ?? 0; break;
    }
  });
  if (pm === true) hour += 12;
  if (month < 1) return null;
  const time = Date.UTC(year, month - 1, day, hour, minute, second, millisecond) - offset * 60_000;
  return Number.isNaN(time) ? null : new Date(time);
}
