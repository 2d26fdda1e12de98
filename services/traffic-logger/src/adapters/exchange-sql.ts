import { Prisma } from '@mockyard/db';
import type { CapturedBody, Headers, TrafficSource } from '@mockyard/contracts';
import type { ExchangeFilter } from '../domain/exchange-filter';
import type { StoredExchange } from '../domain/stored-exchange';

/** Columns every read selects, in the shape `toStoredExchange` maps. */
const COLUMN_LIST = [
  'id::text AS id',
  'seq',
  'started_at',
  'duration_ms',
  'source',
  'engine_id',
  'client_address',
  'correlation_id',
  'method',
  'url',
  'scheme',
  'host',
  'port',
  'path',
  'request_headers',
  'request_body',
  'request_body_encoding',
  'request_body_size',
  'request_body_truncated',
  'request_content_type',
  'status',
  'status_message',
  'response_headers',
  'response_body',
  'response_body_encoding',
  'response_body_size',
  'response_body_truncated',
  'response_content_type',
  'error',
  'tunnel_bytes_up',
  'tunnel_bytes_down',
  'matched_stub_id',
  'near_miss',
  'stored_at',
];

export const EXCHANGE_COLUMNS = Prisma.raw(COLUMN_LIST.join(', '));

/**
 * The same columns for a list of summaries (ExchangeSummary): headers, bodies and the near-miss report, the
 * large values, are not read (PostgreSQL does not even fetch their out-of-line parts). A body that was
 * captured comes back with empty data and its size; toStoredExchange's other fields are as stored.
 */
const SUMMARY_STANDINS: Record<string, string> = {
  request_headers: `'{}'::jsonb AS request_headers`,
  request_body: `(CASE WHEN request_body IS NULL THEN NULL ELSE ''::text END) AS request_body`,
  response_headers: `(CASE WHEN response_headers IS NULL THEN NULL ELSE '{}'::jsonb END) AS response_headers`,
  response_body: `(CASE WHEN response_body IS NULL THEN NULL ELSE ''::text END) AS response_body`,
  near_miss: 'NULL::text AS near_miss',
};
export const EXCHANGE_SUMMARY_COLUMNS = Prisma.raw(COLUMN_LIST.map((column) => SUMMARY_STANDINS[column] ?? column).join(', '));

/** Which columns a list reads: every one, or what a summary needs (EXCHANGE_SUMMARY_COLUMNS). */
export type ExchangeProjection = 'full' | 'summary';

export function columnsOf(projection: ExchangeProjection): Prisma.Sql {
  return projection === 'summary' ? EXCHANGE_SUMMARY_COLUMNS : EXCHANGE_COLUMNS;
}

/** Newest first: start time, then storage order. Every filter index ends with these two columns. */
export const NEWEST_FIRST = Prisma.sql`ORDER BY started_at DESC, seq DESC`;

/** How the `url` substring condition is written (see `chooseIndexedPart`). */
export interface UrlConditionOptions {
  /**
   * A part of `urlContains` whose trigrams are all rare: the trigram index is asked for it alone and the
   * whole substring is checked on the rows found, through an expression the index cannot serve
   * (`(url_lower || '')`), so PostgreSQL does not hand the common trigrams to the index as well.
   */
  urlIndexedPart?: string;
}

/** The SQL twin of `matchesExchangeFilter`; returns the conditions joined with AND (or TRUE). */
export function buildExchangeConditions(f: ExchangeFilter, options: UrlConditionOptions = {}): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (f.method !== undefined) parts.push(Prisma.sql`method = ${f.method}`);
  if (f.status !== undefined) parts.push(Prisma.sql`status = ${f.status}::int`);
  if (f.statusClass !== undefined) parts.push(Prisma.sql`status >= ${f.statusClass * 100}::int AND status < ${f.statusClass * 100 + 100}::int`);
  if (f.hasResponse) parts.push(Prisma.sql`status IS NOT NULL`);
  if (f.host !== undefined) parts.push(Prisma.sql`host = ${f.host}`);
  if (f.urlContains !== undefined) {
    // Case-insensitive through `url_lower` (lower(url), stored when the row is written) and the pattern
    // lowered by the same lower(): what `url ILIKE` means, without lowering every checked row at read time.
    const whole = `%${escapeLike(f.urlContains)}%`;
    const part = options.urlIndexedPart;
    if (part !== undefined && part !== f.urlContains && f.urlContains.includes(part)) {
      parts.push(Prisma.sql`url_lower LIKE lower(${`%${escapeLike(part)}%`}::text) AND (url_lower || '') LIKE lower(${whole}::text)`);
    } else {
      parts.push(Prisma.sql`url_lower LIKE lower(${whole}::text)`);
    }
  }
  if (f.from !== undefined) parts.push(Prisma.sql`started_at >= ${f.from}::timestamptz`);
  if (f.to !== undefined) parts.push(Prisma.sql`started_at < ${f.to}::timestamptz`);
  if (f.minDurationMs !== undefined) parts.push(Prisma.sql`duration_ms >= ${f.minDurationMs}::float8`);
  if (f.source !== undefined) parts.push(Prisma.sql`source = ${f.source}`);
  return parts.length ? Prisma.join(parts, ' AND ') : Prisma.sql`TRUE`;
}

export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

type Row = Record<string, unknown>;

/** Maps one selected row (EXCHANGE_COLUMNS) to the domain's StoredExchange. */
export function toStoredExchange(r: Row): StoredExchange {
  return {
    id: String(r.id),
    seq: Number(r.seq),
    startedAt: asDate(r.started_at),
    durationMs: r.duration_ms === null ? null : Number(r.duration_ms),
    source: r.source as TrafficSource,
    engineId: r.engine_id as string | null,
    clientAddress: r.client_address as string | null,
    correlationId: r.correlation_id as string | null,
    method: String(r.method),
    url: String(r.url),
    scheme: String(r.scheme),
    host: String(r.host),
    port: r.port === null ? null : Number(r.port),
    path: String(r.path),
    requestHeaders: asJson(r.request_headers) as Headers,
    requestBody: asBody(r, 'request'),
    status: r.status === null ? null : Number(r.status),
    statusMessage: r.status_message as string | null,
    responseHeaders: r.response_headers === null ? null : (asJson(r.response_headers) as Headers),
    responseBody: asBody(r, 'response'),
    error: r.error as string | null,
    tunnelBytesUp: r.tunnel_bytes_up === null ? null : Number(r.tunnel_bytes_up),
    tunnelBytesDown: r.tunnel_bytes_down === null ? null : Number(r.tunnel_bytes_down),
    matchedStubId: r.matched_stub_id as string | null,
    nearMiss: r.near_miss as string | null,
    storedAt: asDate(r.stored_at),
  };
}

function asBody(r: Row, side: 'request' | 'response'): CapturedBody | null {
  const data = r[`${side}_body`];
  if (data === null || data === undefined) return null;
  const contentType = r[`${side}_content_type`];
  return {
    encoding: r[`${side}_body_encoding`] === 'base64' ? 'base64' : 'utf8',
    data: String(data),
    size: Number(r[`${side}_body_size`]),
    truncated: Boolean(r[`${side}_body_truncated`]),
    ...(contentType ? { contentType: String(contentType) } : {}),
  };
}

function asDate(v: unknown): Date {
  return v instanceof Date ? v : new Date(String(v));
}

function asJson(v: unknown): unknown {
  return typeof v === 'string' ? JSON.parse(v) : v;
}
