import { METHODS } from 'node:http';
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, TrafficSourceSchema } from '@mockyard/contracts';
import type { ExchangeFilter } from '../domain/exchange-filter';

/**
 * Query parameters of the read API, parsed once where they enter. Empty values count as absent
 * (`?status=` is no filter); repeated parameters are an error, and so is an unknown one: a misspelt
 * filter must never widen a query (on DELETE it would have meant "delete everything"). A method is known when Node's HTTP
 * parser accepts it (http.METHODS: the methods that can ever pass through the gateway), any case.
 */
const KNOWN_METHODS = new Set(METHODS);

/** One plain value. A NUL (`%00`) is refused here: PostgreSQL's text cannot hold one, so it could never match. */
const single = (name: string) =>
  z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string({ error: (i) => (i.input === undefined ? undefined : `${name} must be given once, as a plain value`) })
      .refine((v) => !v.includes('\u0000'), `${name} must not contain a NUL character (%00)`)
      .optional(),
  );

const integer = (name: string, min: number, max: number, message: string) =>
  single(name)
    .refine((v) => v === undefined || /^[+-]?\d+$/.test(v.trim()), `${name} must be an integer`)
    .transform((v) => (v === undefined ? undefined : Number(v.trim())))
    .refine((v) => v === undefined || (v >= min && v <= max), message);

const datetime = (name: string) =>
  single(name)
    .refine((v) => v === undefined || parseIsoDateTime(v) !== undefined, `${name} must be an ISO 8601 date-time that exists, e.g. 2026-11-22T10:00:00Z (no offset means UTC)`)
    .transform((v) => (v === undefined ? undefined : parseIsoDateTime(v)));

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|[+\- ]\d{2}(?::?\d{2})?)?)?$/;

/**
 * A date (midnight) or date-time in ISO 8601 / RFC 3339 form, or undefined. Strict, unlike Date.parse: a
 * day or time that does not exist (2026-02-30, 24:00) is refused instead of rolled over into the next one,
 * which on DELETE would widen the range; without an offset the time is UTC, whatever the server's time zone.
 * Offsets as ±hh:mm, ±hhmm or ±hh; a space where the `+` was is read as `+`, since an unencoded `+` in a query
 * string arrives as a space (`?from=2026-11-22T10:00:00+01:00` typed into curl).
 */
export function parseIsoDateTime(value: string): Date | undefined {
  const m = ISO_DATE_TIME.exec(value.trim());
  if (!m) return undefined;
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone = 'Z'] = m;
  const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
  if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > daysInMonth) return undefined;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  const sign = zone[0] === ' ' ? '+' : zone[0];
  const offset = /^[Zz]$/.test(zone) ? 'Z' : `${sign}${zone.slice(1, 3)}:${zone.length > 3 ? zone.slice(-2) : '00'}`;
  if (offset !== 'Z' && (Number(offset.slice(1, 3)) > 23 || Number(offset.slice(4)) > 59)) return undefined;
  const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}${fraction.slice(0, 4)}${offset}`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

export const PageQuerySchema = z.strictObject({
  page: integer('page', 0, 1_000_000, 'page must be between 0 and 1000000').default(0).describe('page number, from 0 (default 0)'),
  size: integer('size', 1, MAX_PAGE_SIZE, `size must be between 1 and ${MAX_PAGE_SIZE}`)
    .default(DEFAULT_PAGE_SIZE)
    .describe(`page size, 1-${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})`),
});

export const FilterQuerySchema = z.strictObject({
  method: single('method')
    .transform((v) => v?.trim().toUpperCase())
    .refine((v) => v === undefined || KNOWN_METHODS.has(v), 'method must be an HTTP method such as GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, CONNECT')
    .describe('HTTP method, any case (GET, post, …)'),
  status: integer('status', 100, 599, 'status must be an HTTP status code (100-599)').describe('response status code, exact'),
  statusClass: single('statusClass')
    .transform((v) => v?.trim().toLowerCase())
    .refine((v) => v === undefined || /^[1-5]xx$/.test(v), 'statusClass must be one of 1xx, 2xx, 3xx, 4xx, 5xx')
    .transform((v) => (v === undefined ? undefined : Number(v[0])))
    .describe('response status class: 1xx … 5xx'),
  host: single('host')
    .transform((v) => v?.trim().toLowerCase())
    .describe('target host name without port, exact (case-insensitive)'),
  url: single('url')
    .refine((v) => v === undefined || v.length <= 500, 'url must be at most 500 characters')
    .describe('case-insensitive substring of the target URL'),
  from: datetime('from').describe('started at or after (ISO 8601)'),
  to: datetime('to').describe('started before (ISO 8601)'),
  minDurationMs: integer('minDurationMs', 0, 86_400_000, 'minDurationMs must be between 0 and 86400000').describe('took at least this many ms'),
  source: single('source')
    .refine((v) => v === undefined || TrafficSourceSchema.safeParse(v).success, `source must be one of ${TrafficSourceSchema.options.join(', ')}`)
    .describe(`capture source: ${TrafficSourceSchema.options.join(', ')}`),
});

export const RequestsQuerySchema = PageQuerySchema.extend(FilterQuerySchema.shape);

/** GET /api/exchanges: RequestsQuerySchema and `view`, whole exchanges or the live feed's summaries. */
export const ExchangesQuerySchema = RequestsQuerySchema.extend({
  view: single('view')
    .refine((v) => v === undefined || v === 'full' || v === 'summary', 'view must be full or summary')
    .transform((v) => (v ?? 'full') as 'full' | 'summary')
    .describe('full (default): request and response with headers and bodies; summary: what a monitor row needs (as the live feed sends it), no headers or bodies'),
});

export function toExchangeFilter(q: z.output<typeof FilterQuerySchema>): ExchangeFilter {
  const filter: ExchangeFilter = {
    method: q.method,
    status: q.status,
    statusClass: q.statusClass,
    host: q.host || undefined,
    urlContains: q.url,
    from: q.from,
    to: q.to,
    minDurationMs: q.minDurationMs,
    source: q.source as ExchangeFilter['source'],
  };
  return Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined)) as ExchangeFilter;
}
