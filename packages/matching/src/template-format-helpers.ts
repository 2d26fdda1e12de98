import type { HelperDelegate } from 'handlebars';
import { assertTimeZone, formatJavaDate } from './java-date-format';
import { TemplateError } from './template-error';
import { toDate } from './template-date-helpers';
import { splitArgs, toComparable, toText, toWidth } from './template-values';

/**
 * jknack/Handlebars.java's `stringFormat`, `numberFormat` and `dateFormat` and its NumberHelper (`isEven`,
 * `isOdd`, `stripes`), which WireMock registers beside its own helpers. Java's formatting rules are
 * followed (java.util.Formatter, DecimalFormat with HALF_EVEN, DateFormat styles) for the default locale
 * a WireMock container runs with, en_US; another locale changes separators and style formats through Intl.
 */

/** Locale names as Java writes them (`en_GB`) to BCP 47 (`en-GB`); undefined = en-US. */
function toBcp47(locale: unknown, helper: string): string {
  if (locale === undefined || locale === null || locale === '') return 'en-US';
  const tag = toText(locale).replace(/_/g, '-');
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? 'en-US';
  } catch {
    throw new TemplateError(`${helper}: unknown locale ${JSON.stringify(toText(locale))}`);
  }
}

/** A helper argument as a finite number (numbers, and numeric text from the request); else a TemplateError. */
function toFiniteNumber(value: unknown, helper: string): number {
  const comparable = toComparable(value);
  const number = typeof comparable === 'number' ? comparable : toText(comparable).trim() === '' ? NaN : Number(toText(comparable).trim());
  if (!Number.isFinite(number)) throw new TemplateError(`${helper}: found ${JSON.stringify(toText(comparable))}, expected a number`);
  return number;
}

/** |value| in plain decimal notation from its shortest round-trip form (`1e-7` → `0.0000001`), as Double.toString's digits. */
function shortestDecimal(value: number): string {
  const text = Math.abs(value).toString();
  const match = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const digits = match[1] + (match[2] ?? '');
  const point = 1 + Number(match[3]);
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  return point >= digits.length ? digits + '0'.repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * |value| rounded to `digits` fraction digits as [integer digits, fraction digits]. DecimalFormat (`exact`)
 * rounds the double's exact value, so 2.675 (2.67499…) gives 2.67 and only an exact half is a tie;
 * Formatter's %f (`shortest`) rounds the shortest decimal form half-up, so 2.675 gives 2.68.
 */
function roundDecimal(value: number, digits: number, mode: 'halfEven' | 'halfUp', from: 'exact' | 'shortest' = 'exact'): [string, string] {
  // toFixed writes 1e21 and above in exponent form; such doubles are whole numbers, exact as BigInts
  const exact = () => (Math.abs(value) >= 1e21 ? BigInt(Math.abs(value)).toString() : Math.abs(value).toFixed(Math.min(100, digits + 30)));
  const decimal = from === 'exact' ? exact() : shortestDecimal(value);
  const [intPart, fracPart = ''] = decimal.split('.');
  const kept = intPart + fracPart.slice(0, digits).padEnd(digits, '0');
  const rest = fracPart.slice(digits);
  const half = rest[0] === undefined ? -1 : rest[0] > '5' ? 1 : rest[0] < '5' ? -1 : /[1-9]/.test(rest.slice(1)) ? 1 : 0;
  const lastDigit = Number(kept[kept.length - 1] ?? '0');
  const up = half > 0 || (half === 0 && (mode === 'halfUp' || lastDigit % 2 === 1));
  const rounded = up ? (BigInt(kept) + 1n).toString().padStart(kept.length, '0') : kept;
  const integer = rounded.slice(0, rounded.length - digits) || '0';
  return [integer.replace(/^0+(?=\d)/, ''), digits > 0 ? rounded.slice(rounded.length - digits) : ''];
}

function groupDigits(digits: string, size: number, separator: string): string {
  if (size <= 0 || digits.length <= size) return digits;
  const groups: string[] = [];
  for (let end = digits.length; end > 0; end -= size) groups.unshift(digits.slice(Math.max(0, end - size), end));
  return groups.join(separator);
}

function symbolsOf(locale: string): { group: string; decimal: string } {
  const parts = new Intl.NumberFormat(locale).formatToParts(1234.5);
  return { group: parts.find((p) => p.type === 'group')?.value ?? ',', decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.' };
}

interface DecimalPattern {
  prefix: string;
  suffix: string;
  negativePrefix: string;
  negativeSuffix: string;
  minInt: number;
  minFrac: number;
  maxFrac: number;
  grouping: number;
  multiplier: number;
}

/** Splits a DecimalFormat pattern at unquoted `;`, unquoting literals ('' is a quote). */
function parseDecimalPattern(pattern: string): DecimalPattern {
  const split = (text: string): { prefix: string; number: string; suffix: string; special: string } => {
    let prefix = '';
    let number = '';
    let suffix = '';
    /** Unquoted affix characters: a quoted '%' is a literal, an unquoted one multiplies by 100. */
    let special = '';
    let quoted = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === "'") {
        if (text[i + 1] === "'") {
          i++;
          if (number === '') prefix += "'";
          else suffix += "'";
          continue;
        }
        quoted = !quoted;
        continue;
      }
      if (!quoted && suffix === '' && /[#0,.]/.test(c)) number += c;
      else if (number === '') prefix += c;
      else suffix += c;
      if (!quoted && !/[#0,.]/.test(c)) special += c;
    }
    return { prefix, number, suffix, special };
  };
  let cut = -1;
  for (let i = 0, quoted = false; i < pattern.length; i++) {
    if (pattern[i] === "'") quoted = !quoted;
    else if (pattern[i] === ';' && !quoted) {
      cut = i;
      break;
    }
  }
  const positive = split(cut >= 0 ? pattern.slice(0, cut) : pattern);
  const negative = cut >= 0 ? split(pattern.slice(cut + 1)) : undefined;
  if (positive.number === '' || !/^[#,]*0*[,0]*(\.0*#*)?$/.test(positive.number)) {
    throw new TemplateError(`numberFormat: ${JSON.stringify(pattern)} is not a number format (integer, percent, currency, number, or a DecimalFormat pattern such as #,##0.00)`);
  }
  const [integerPart, fractionPart] = positive.number.split('.');
  const lastComma = integerPart.lastIndexOf(',');
  return {
    prefix: positive.prefix,
    suffix: positive.suffix,
    negativePrefix: negative ? negative.prefix : `-${positive.prefix}`,
    negativeSuffix: negative ? negative.suffix : positive.suffix,
    minInt: (integerPart.match(/0/g) ?? []).length,
    minFrac: fractionPart === undefined ? 0 : (fractionPart.match(/0/g) ?? []).length,
    maxFrac: fractionPart === undefined ? 0 : fractionPart.length,
    grouping: lastComma >= 0 ? integerPart.length - lastComma - 1 : 0,
    multiplier: positive.special.includes('%') ? 100 : positive.special.includes('\u2030') ? 1000 : 1,
  };
}

/** java.text.DecimalFormat for a pattern (HALF_EVEN), with the locale's separators. */
export function formatDecimalPattern(value: number, pattern: string, locale = 'en-US'): string {
  const p = parseDecimalPattern(pattern);
  const { group, decimal } = symbolsOf(locale);
  const [intDigits, fracDigits] = roundDecimal(value * p.multiplier, p.maxFrac, 'halfEven');
  let fraction = fracDigits.replace(/0+$/, '');
  if (fraction.length < p.minFrac) fraction = fracDigits.slice(0, p.minFrac);
  let integer = intDigits === '0' && p.minInt === 0 ? '' : intDigits.padStart(p.minInt, '0');
  if (integer === '' && fraction === '') integer = '0';
  const body = groupDigits(integer, p.grouping, group) + (fraction ? decimal + fraction : '');
  const negative = value < 0 && /[1-9]/.test(intDigits + fracDigits);
  const text = negative ? p.negativePrefix + body + p.negativeSuffix : p.prefix + body + p.suffix;
  return text.includes('\u00a4') ? text.replace(/\u00a4/g, currencyOf(locale, 'symbol')) : text;
}

/** The locale's currency (Java takes it from the locale's region): its code, or its symbol. */
function currencyOf(locale: string, form: 'code' | 'symbol'): string {
  const region = new Intl.Locale(locale).maximize().region ?? '';
  const currency = REGION_CURRENCY[region];
  if (!currency) throw new TemplateError(`numberFormat: no currency known for locale ${locale}; name a locale with a region, such as en_GB`);
  if (form === 'code') return currency;
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).formatToParts(1).find((part) => part.type === 'currency')?.value ?? currency;
}

/** Currencies of the regions a locale may name, for `numberFormat … 'currency'` (Java takes it from the locale). */
const REGION_CURRENCY: Record<string, string> = {
  US: 'USD', GB: 'GBP', IE: 'EUR', DE: 'EUR', FR: 'EUR', ES: 'EUR', IT: 'EUR', NL: 'EUR', BE: 'EUR', AT: 'EUR', PT: 'EUR', FI: 'EUR', GR: 'EUR',
  CH: 'CHF', SE: 'SEK', NO: 'NOK', DK: 'DKK', PL: 'PLN', CZ: 'CZK', HU: 'HUF', JP: 'JPY', CN: 'CNY', IN: 'INR', KR: 'KRW', BR: 'BRL',
  CA: 'CAD', AU: 'AUD', NZ: 'NZD', MX: 'MXN', ZA: 'ZAR', RU: 'RUB', TR: 'TRY', SG: 'SGD', HK: 'HKD', IL: 'ILS',
};

function formatNumberStyle(value: number, style: string, locale: string): string {
  const options: Intl.NumberFormatOptions & { roundingMode?: string } = { roundingMode: 'halfEven' };
  if (style === 'integer') options.maximumFractionDigits = 0;
  else if (style === 'percent') Object.assign(options, { style: 'percent', maximumFractionDigits: 0 });
  else if (style === 'currency') Object.assign(options, { style: 'currency', currency: currencyOf(locale, 'code') });
  else options.maximumFractionDigits = 3;
  return new Intl.NumberFormat(locale, options).format(value);
}

/** One java.util.Formatter conversion: `%[index$][flags][width][.precision]conversion`. */
const SPECIFIER = /%(\d+\$|<)?([-#+ 0,(]*)(\d+)?(\.\d+)?([a-zA-Z%])/g;

function formatJavaString(format: string, args: unknown[]): string {
  let next = 0;
  let previous = -1;
  return format.replace(SPECIFIER, (spec, index: string | undefined, flags: string, width: string | undefined, precision: string | undefined, conversion: string) => {
    if (width !== undefined) toWidth(width, 'stringFormat');
    if (conversion === '%') return pad('%', flags, width);
    if (conversion === 'n') return '\n';
    const at = index === '<' ? previous : index ? Number(index.slice(0, -1)) - 1 : next++;
    if (at < 0 || at >= args.length) throw new TemplateError(`stringFormat: ${spec} has no argument (${args.length} given)`);
    previous = at;
    const arg = toComparable(args[at]);
    const digits = precision === undefined ? undefined : toWidth(precision.slice(1), 'stringFormat');
    let text: string;
    switch (conversion) {
      case 's':
      case 'S': {
        text = arg === undefined || arg === null ? 'null' : toText(arg);
        if (digits !== undefined) text = text.slice(0, digits);
        if (conversion === 'S') text = text.toUpperCase();
        return pad(text, flags, width);
      }
      case 'b':
      case 'B':
        // Java: null is false, a Boolean itself, anything else (even the text "false") true
        text = arg === undefined || arg === null ? 'false' : typeof arg === 'boolean' ? String(arg) : 'true';
        return pad(conversion === 'B' ? text.toUpperCase() : text, flags, width);
      case 'c': {
        text = typeof arg === 'number' ? String.fromCodePoint(arg) : toText(arg).slice(0, 1);
        return pad(text, flags, width);
      }
      case 'd': {
        const number = toFiniteNumber(arg, 'stringFormat');
        if (!Number.isInteger(number)) throw new TemplateError(`stringFormat: ${spec} needs a whole number, got ${toText(arg)}`);
        return signed(BigInt(number).toString().replace('-', ''), number < 0, flags, width);
      }
      case 'x':
      case 'X':
      case 'o': {
        const number = toFiniteNumber(arg, 'stringFormat');
        if (!Number.isInteger(number)) throw new TemplateError(`stringFormat: ${spec} needs a whole number, got ${toText(arg)}`);
        const bits = number >= -(2 ** 31) && number < 2 ** 31 ? 32 : 64;
        const unsigned = BigInt.asUintN(bits, BigInt(number));
        text = unsigned.toString(conversion === 'o' ? 8 : 16);
        if (flags.includes('#')) text = (conversion === 'o' ? '0' : '0x') + text;
        if (conversion === 'X') text = text.toUpperCase();
        return flags.includes('0') && width ? text.padStart(Number(width), '0') : pad(text, flags, width);
      }
      case 'f': {
        const number = toFiniteNumber(arg, 'stringFormat');
        const [integer, fraction] = roundDecimal(number, digits ?? 6, 'halfUp', 'shortest');
        const body = (flags.includes(',') ? groupDigits(integer, 3, ',') : integer) + (fraction ? `.${fraction}` : '');
        return signed(body, number < 0 && /[1-9]/.test(integer + fraction), flags, width);
      }
      case 'e':
      case 'E': {
        const number = toFiniteNumber(arg, 'stringFormat');
        const [mantissa, exponent] = Math.abs(number).toExponential(digits ?? 6).split('e');
        const exp = Number(exponent);
        text = `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
        return signed(conversion === 'E' ? text.toUpperCase() : text, number < 0, flags, width);
      }
      default:
        throw new TemplateError(`stringFormat: ${spec} is not a supported conversion (s, S, d, f, e, x, X, o, c, b, n, %)`);
    }
  });
}

/** Width and `-` (left-justify) for any conversion. */
function pad(text: string, flags: string, width: string | undefined): string {
  if (!width) return text;
  return flags.includes('-') ? text.padEnd(Number(width)) : text.padStart(Number(width));
}

/** Sign flags (`+`, space, `(`), `,` grouping of whole numbers and `0` padding, then the width. */
function signed(digits: string, negative: boolean, flags: string, width: string | undefined): string {
  let body = flags.includes(',') && /^\d+$/.test(digits) ? groupDigits(digits, 3, ',') : digits;
  const [before, after] = negative ? (flags.includes('(') ? ['(', ')'] : ['-', '']) : flags.includes('+') ? ['+', ''] : flags.includes(' ') ? [' ', ''] : ['', ''];
  if (flags.includes('0') && width) body = body.padStart(Number(width) - before.length - after.length, '0');
  return pad(before + body + after, flags, width);
}

/** DateFormat's date styles for en_US (Java 11+, CLDR). */
const DATE_STYLES: Record<string, Intl.DateTimeFormatOptions['dateStyle']> = { full: 'full', long: 'long', medium: 'medium', short: 'short' };

export const formatHelpers: Record<string, HelperDelegate> = {
  /** `{{stringFormat 'Hello %s, %d items at %.2f' name 3 9.5}}`: java.util.Formatter's common conversions. */
  stringFormat(...args: unknown[]) {
    const { values } = splitArgs(args);
    if (values.length === 0) throw new TemplateError('stringFormat: a format string is required');
    return formatJavaString(toText(values[0]), values.slice(1));
  },
  /** `{{numberFormat 1234.5678 '#,##0.00'}}`, `'integer' | 'percent' | 'currency' | 'number'`, then a locale (`en_GB`). */
  numberFormat(...args: unknown[]) {
    const { values } = splitArgs(args);
    const value = toFiniteNumber(values[0], 'numberFormat');
    const locale = toBcp47(values[2], 'numberFormat');
    const format = values[1] === undefined ? 'number' : toText(values[1]);
    const style = format.trim().toLowerCase();
    if (['integer', 'percent', 'currency', 'number', 'default'].includes(style)) return formatNumberStyle(value, style, locale);
    return formatDecimalPattern(value, format, locale);
  },
  /** `{{dateFormat (parseDate d) 'dd/MM/yyyy' tz='Europe/Paris'}}`; styles `full`, `long`, `medium` (default), `short`. */
  dateFormat(...args: unknown[]) {
    const { values, options } = splitArgs(args);
    const date = toDate(values[0], 'dateFormat');
    const pattern = toText(values[1] ?? options.hash.format ?? 'medium');
    const tz = options.hash.tz === undefined ? 'UTC' : toText(options.hash.tz);
    try {
      assertTimeZone(tz);
    } catch {
      throw new TemplateError(`dateFormat: unknown time zone ${tz}`);
    }
    const style = DATE_STYLES[pattern];
    if (style) return new Intl.DateTimeFormat(toBcp47(values[2], 'dateFormat'), { dateStyle: style, timeZone: /^[+-]/.test(tz) ? undefined : tz }).format(date);
    try {
      return formatJavaDate(date, pattern, tz);
    } catch (error) {
      throw new TemplateError(`dateFormat: ${(error as Error).message}`);
    }
  },
  /** `{{isEven n}}` → "even" (or the first parameter) when n is even, else nothing. */
  isEven(...args: unknown[]) {
    const { values } = splitArgs(args);
    return toFiniteNumber(values[0], 'isEven') % 2 === 0 ? toText(values[1] ?? 'even') : '';
  },
  /** `{{isOdd n}}` → "odd" (or the first parameter) when n is odd, else nothing. */
  isOdd(...args: unknown[]) {
    const { values } = splitArgs(args);
    return Math.abs(toFiniteNumber(values[0], 'isOdd') % 2) === 1 ? toText(values[1] ?? 'odd') : '';
  },
  /** `{{stripes @index 'row-even' 'row-odd'}}`: the first text for even numbers, the second for odd ones. */
  stripes(...args: unknown[]) {
    const { values } = splitArgs(args);
    return toFiniteNumber(values[0], 'stripes') % 2 === 0 ? toText(values[1] ?? 'even') : toText(values[2] ?? 'odd');
  },
};
