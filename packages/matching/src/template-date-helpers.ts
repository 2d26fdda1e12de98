import type { HelperDelegate } from 'handlebars';
import { addToDate, parseDateText, parseOffsetExpression, truncateDate } from './date-time';
import { assertTimeZone, formatJavaDate } from './java-date-format';
import { TemplateError } from './template-error';
import { splitArgs, toText } from './template-values';

/** A date returned by a helper: renders in ISO 8601 to the second in UTC (as WireMock), usable as input to `date`. */
export class RenderableDate {
  constructor(readonly date: Date) {}
  toString(): string {
    return this.date.toISOString().replace(/\.\d{3}Z$/, 'Z');
  }
  toJSON(): string {
    return this.toString();
  }
}

/** A helper's date argument: a helper's date, a Date, epoch milliseconds, or text parseDate reads without a format. */
export function toDate(value: unknown, helper: string): Date {
  if (value instanceof RenderableDate) return value.date;
  if (value instanceof Date) return value;
  if (typeof value === 'number') return new Date(value);
  const parsed = parseDateText(toText(value));
  if (!parsed) throw new TemplateError(`${helper}: cannot read ${JSON.stringify(toText(value))} as a date`);
  return parsed;
}

function renderDate(date: Date, hash: Record<string, unknown>, helper: string): unknown {
  let result = date;
  if (hash.offset !== undefined) {
    const offset = parseOffsetExpression(String(hash.offset));
    if (!offset) throw new TemplateError(`${helper}: offset must look like '3 days' or '-1 hours', got ${JSON.stringify(hash.offset)}`);
    result = addToDate(result, offset.amount, offset.unit);
  }
  const format = hash.format === undefined ? undefined : String(hash.format);
  const timezone = hash.timezone === undefined ? undefined : String(hash.timezone);
  if (timezone) {
    try {
      assertTimeZone(timezone);
    } catch {
      throw new TemplateError(`${helper}: unknown timezone ${timezone}`);
    }
  }
  if (format === 'epoch') return result.getTime();
  if (format === 'unix') return Math.floor(result.getTime() / 1000);
  if (format === undefined && timezone === undefined) return new RenderableDate(result);
  try {
    return formatJavaDate(result, format ?? "yyyy-MM-dd'T'HH:mm:ssXXX", timezone);
  } catch (error) {
    throw new TemplateError(`${helper}: ${(error as Error).message}`);
  }
}

export const dateHelpers: Record<string, HelperDelegate> = {
  /** `{{now offset='3 days' format='yyyy-MM-dd' timezone='Europe/Paris'}}`; format `epoch` (ms) / `unix` (s). */
  now(...args: unknown[]) {
    const { options } = splitArgs(args);
    return renderDate(new Date(), options.hash, 'now');
  },
  /** `{{date (parseDate request.headers.Date) offset='-1 days' format='yyyy-MM-dd'}}` */
  date(...args: unknown[]) {
    const { values, options } = splitArgs(args);
    return renderDate(toDate(values[0], 'date'), options.hash, 'date');
  },
  /** `{{parseDate '10/11/2021' format='dd/MM/yyyy'}}`; without format ISO 8601 / RFC 1123; `epoch`/`unix` too. */
  parseDate(...args: unknown[]) {
    const { values, options } = splitArgs(args);
    const text = toText(values[0]);
    const format = options.hash.format === undefined ? undefined : String(options.hash.format);
    let parsed: Date | null;
    try {
      parsed = parseDateText(text, format);
    } catch (error) {
      throw new TemplateError(`parseDate: ${(error as Error).message}`);
    }
    if (!parsed) throw new TemplateError(`parseDate: cannot parse ${JSON.stringify(text)}${format ? ` with format ${format}` : ''}`);
    return new RenderableDate(parsed);
  },
  /** `{{truncateDate (now) 'first day of month'}}` */
  truncateDate(...args: unknown[]) {
    const { values } = splitArgs(args);
    const truncated = truncateDate(toDate(values[0], 'truncateDate'), String(values[1] ?? ''));
    if (!truncated) throw new TemplateError(`truncateDate: unknown truncation ${JSON.stringify(values[1])}`);
    return new RenderableDate(truncated);
  },
};
