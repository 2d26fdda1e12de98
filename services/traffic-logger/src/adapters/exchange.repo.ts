import { Prisma, type DbHandle } from '@mockyard/db';
import type { ExchangeFilter } from '../domain/exchange-filter';
import type { NewExchange, StoredExchange } from '../domain/stored-exchange';
import { chooseIndexedPart } from '../domain/url-trigrams';
import { buildExchangeConditions, columnsOf, EXCHANGE_COLUMNS, EXCHANGE_SUMMARY_COLUMNS, NEWEST_FIRST, toStoredExchange, type ExchangeProjection, type UrlConditionOptions } from './exchange-sql';
import { UrlTrigramStats, type UrlSample } from './url-trigram-stats';

/**
 * Inserts are serialised across logger instances by this transaction-scoped advisory lock, so `seq`
 * (taken inside the lock) becomes visible in commit order: a reader that saw seq N will never later
 * find a new row below N. The live feed's resume-by-seq relies on it.
 */
const INSERT_LOCK_KEY = 727_281;

/**
 * A URL-substring page is first looked for among this many newest rows (of the other filters), walking
 * the time index: a substring in more than ~1% of recent traffic fills the first page there in a few
 * milliseconds, where the trigram index would have to find and sort every match.
 */
export const URL_RECENT_WINDOW = 2000;
/** Up to this many estimated matches a URL-substring page is found through the trigram index (see listByUrl). */
export const URL_COLLECT_LIMIT = 20_000;

export interface ListResult {
  items: StoredExchange[];
  hasMore: boolean;
  /** Every match, when the query counted them anyway (no separate count needed). */
  total?: number;
}

export interface CountResult {
  count: number;
  exact: boolean;
}

type Row = Record<string, unknown>;

/**
 * The `exchanges` table: batched idempotent inserts and the read queries, SQL built with Prisma's `sql`
 * template (parameters bound, never spliced) and run straight on the driver (`DbHandle.query` /
 * `transaction`). The logger runs no Prisma query at all, so Prisma's query compiler (about 70 MB of
 * WebAssembly, loaded with a client's first query) is never loaded in this service.
 */
export class ExchangeRepo {
  private readonly urlStats: UrlTrigramStats;

  constructor(private readonly db: Pick<DbHandle, 'query' | 'transaction'>) {
    this.urlStats = new UrlTrigramStats(db);
  }

  private rows<R = Row>(sql: Prisma.Sql): Promise<R[]> {
    return this.db.query<R>(sql.text, sql.values);
  }

  /** Rows affected by a DELETE (counted through RETURNING in the same statement). */
  private async deleted(sql: Prisma.Sql): Promise<number> {
    const [{ n }] = await this.rows<{ n: number }>(Prisma.sql`WITH d AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM d`);
    return n;
  }

  /**
   * Inserts the rows that are not stored yet (ON CONFLICT DO NOTHING) in one transaction; returns the
   * new seqs. One statement with the batch as a single JSONB parameter: measured about 10x faster
   * than Prisma's createMany for 500 rows (which binds ~16,000 parameters), see the README. It goes
   * straight to the driver, not through Prisma's $queryRaw, which copies the parameter four times on the
   * way (serialised as JSON inside JSON, parsed back, handed on): each copy of a batch's few hundred KB
   * is a large object that outlives the round trip, and under sustained load they held about 80 MB of
   * the heap between full collections (BENCHMARKS.md, footprint).
   */
  async insertMany(rows: NewExchange[]): Promise<number[]> {
    if (rows.length === 0) return [];
    const json = JSON.stringify(rows.map(toInsertRecord));
    const created = await this.db.transaction(async (query) => {
      await query(INSERT_LOCK_SQL);
      return query<{ seq: string | number | bigint }>(INSERT_SQL, [json]);
    });
    return created.map((r) => Number(r.seq));
  }

  /** One page, newest first; fetches one extra row to know whether more follow. */
  async list(filter: ExchangeFilter, page: number, size: number, projection: ExchangeProjection = 'full'): Promise<ListResult> {
    const columns = columnsOf(projection);
    if (filter.urlContains !== undefined) return this.listByUrl(filter, page, size, columns);
    const rows = await this.rows(Prisma.sql`
      SELECT ${columns} FROM exchanges WHERE ${buildExchangeConditions(filter)}
      ${NEWEST_FIRST} LIMIT ${size + 1}::int OFFSET ${page * size}::bigint`);
    return { items: rows.slice(0, size).map(toStoredExchange), hasMore: rows.length > size };
  }

  /**
   * A URL substring has no ordered index, so its page is found in one of three ways:
   * 1. among the newest URL_RECENT_WINDOW rows (time index), unless the sample of stored URLs says the
   *    substring is too rare to fill the page there (then this step would only cost time);
   * 2. else, when PostgreSQL estimates at most URL_COLLECT_LIMIT matches: every match is collected
   *    through the trigram index (asked only for the substring's rare part), the narrow (time, seq)
   *    pairs sorted and counted. The planner would otherwise walk the time index on the belief that
   *    matches are spread evenly, and matches that came in bursts (one resource, one afternoon) make
   *    that walk read tens of thousands of rows before the first one. When the substring alone is rarer
   *    than the other filters together (and not common), the other filters are checked on its matches
   *    (`collectByUrl`); else the matches of all of them are collected as the planner sees fit (a rare
   *    host with a common substring: the host's index);
   * 3. else the planner's own plan (a common substring missing from recent traffic).
   */
  private async listByUrl(filter: ExchangeFilter, page: number, size: number, columns: Prisma.Sql): Promise<ListResult> {
    const sample = await this.urlStats.sample();
    const expectedInWindow = sample ? sample.shareContaining(filter.urlContains as string) * URL_RECENT_WINDOW : Infinity;
    if (expectedInWindow >= ((page + 1) * size + 1) / 2) {
      const recent = await this.listAmongNewest(filter, page, size, columns);
      if (recent) return recent;
    }
    const options = urlOptions(filter, sample);
    const where = buildExchangeConditions(filter, options);
    const others: ExchangeFilter = { ...filter, urlContains: undefined };
    const urlAlone: ExchangeFilter = { urlContains: filter.urlContains };
    let matches: Prisma.Sql;
    if (hasConditions(others) && (await this.urlDrives(urlAlone, others))) {
      matches = collectByUrl(buildExchangeConditions(urlAlone, options), buildExchangeConditions(others));
    } else if ((await this.estimate(filter)) <= URL_COLLECT_LIMIT) {
      matches = Prisma.sql`SELECT seq, started_at FROM exchanges WHERE ${where}`;
    } else {
      const rows = await this.rows(Prisma.sql`
        SELECT ${columns} FROM exchanges WHERE ${where}
        ${NEWEST_FIRST} LIMIT ${size + 1}::int OFFSET ${page * size}::bigint`);
      return { items: rows.slice(0, size).map(toStoredExchange), hasMore: rows.length > size };
    }
    // Every match is at hand here, so the exact total comes with the page (no count afterwards).
    const rows = await this.rows(Prisma.sql`
      WITH matches AS MATERIALIZED (${matches})
      SELECT ${columns}, (SELECT count(*) FROM matches)::int AS matches_total FROM exchanges
      WHERE seq IN (SELECT seq FROM matches ${NEWEST_FIRST} LIMIT ${size + 1}::int OFFSET ${page * size}::bigint)
      ${NEWEST_FIRST}`);
    const total = rows.length > 0 ? Number(rows[0].matches_total) : undefined;
    return { items: rows.slice(0, size).map(toStoredExchange), hasMore: rows.length > size, ...(total === undefined ? {} : { total }) };
  }

  /**
   * Whether the substring's matches are the cheaper start: estimated at most 2 × URL_COLLECT_LIMIT and no
   * more than those of the other filters. (PostgreSQL's estimate of a rare substring varies by a factor of
   * two or three from one ANALYZE to the next: 16,032–30,060 for 11,110 matches.)
   */
  private async urlDrives(urlAlone: ExchangeFilter, others: ExchangeFilter): Promise<boolean> {
    const urlRows = await this.estimate(urlAlone);
    return urlRows <= 2 * URL_COLLECT_LIMIT && urlRows <= (await this.estimate(others));
  }

  /** PostgreSQL's estimate of the rows matching the filter (a plan, no scan). */
  private async estimate(filter: ExchangeFilter): Promise<number> {
    return readPlanRows(await this.rows(Prisma.sql`EXPLAIN (FORMAT JSON) SELECT 1 FROM exchanges WHERE ${buildExchangeConditions(filter)}`));
  }

  /**
   * The page when the URL substring matches often enough among the newest URL_RECENT_WINDOW rows that
   * satisfy the other filters; undefined otherwise. Exact: every match outside that window is older than
   * every row in it.
   */
  private async listAmongNewest(filter: ExchangeFilter, page: number, size: number, columns: Prisma.Sql): Promise<ListResult | undefined> {
    if ((page + 1) * size >= URL_RECENT_WINDOW) return undefined;
    const others = buildExchangeConditions({ ...filter, urlContains: undefined });
    const rows = await this.rows(Prisma.sql`
      SELECT ${columns} FROM (
        SELECT * FROM exchanges WHERE ${others} ${NEWEST_FIRST} LIMIT ${URL_RECENT_WINDOW}::int
      ) newest
      WHERE ${buildExchangeConditions({ urlContains: filter.urlContains })}
      ${NEWEST_FIRST} LIMIT ${size + 1}::int OFFSET ${page * size}::bigint`);
    if (rows.length <= size) return undefined;
    return { items: rows.slice(0, size).map(toStoredExchange), hasMore: true };
  }

  /**
   * totalElements without paying for exact counts of large sets (an exact count over a million rows costs
   * far more than the read API's latency budget). PostgreSQL's planner estimate comes first (a plan, no
   * scan); when it is clearly above `exactLimit` it is the answer. Otherwise the matches are counted,
   * capped at exactLimit + 1 and bounded by `timeoutMs` (a rare filter without an index would scan the
   * table); a count that hits either bound falls back to the estimate.
   */
  async count(filter: ExchangeFilter, exactLimit: number, timeoutMs: number): Promise<CountResult> {
    // The planner estimates the plain condition best (the URL substring's own statistics); the count
    // looks the matches up through the rare part of the substring.
    const estimate = await this.estimate(filter);
    const where = buildExchangeConditions(filter, urlOptions(filter, filter.urlContains === undefined ? undefined : await this.urlStats.sample()));
    if (estimate > exactLimit * 4) return { count: estimate, exact: false };
    try {
      const n = await this.db.transaction(async (query) => {
        await query(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`);
        const capped = Prisma.sql`
          SELECT count(*)::int AS n FROM (SELECT 1 FROM exchanges WHERE ${where} LIMIT ${exactLimit + 1}::int) capped`;
        const [{ n }] = await query<{ n: number }>(capped.text, capped.values);
        return n;
      });
      if (n <= exactLimit) return { count: n, exact: true };
      return { count: Math.max(estimate, exactLimit + 1), exact: false };
    } catch (err) {
      if (!isStatementTimeout(err)) throw err;
      return { count: estimate, exact: false };
    }
  }

  async findById(id: string): Promise<StoredExchange | undefined> {
    const rows = await this.rows(Prisma.sql`SELECT ${EXCHANGE_COLUMNS} FROM exchanges WHERE id = ${id}::uuid`);
    return rows[0] ? toStoredExchange(rows[0]) : undefined;
  }

  /**
   * Rows stored after `afterSeq`, in storage order: the live feed's source, which sends summaries, so they are
   * read as summaries (EXCHANGE_SUMMARY_COLUMNS: no headers, bodies' data empty).
   */
  async listAfterSeq(afterSeq: number, limit: number, filter: ExchangeFilter = {}): Promise<StoredExchange[]> {
    const rows = await this.rows(Prisma.sql`
      SELECT ${EXCHANGE_SUMMARY_COLUMNS} FROM exchanges WHERE seq > ${afterSeq}::bigint AND ${buildExchangeConditions(filter)}
      ORDER BY seq LIMIT ${limit}::int`);
    return rows.map(toStoredExchange);
  }

  async maxSeq(): Promise<number> {
    const [{ max }] = await this.rows<{ max: bigint | number | string | null }>(Prisma.sql`SELECT max(seq) AS max FROM exchanges`);
    return max === null ? 0 : Number(max);
  }

  async lastIssuedSeq(): Promise<number> {
    const [{ last }] = await this.rows<{ last: bigint | number | string | null }>(
      Prisma.sql`SELECT pg_sequence_last_value(pg_get_serial_sequence('exchanges', 'seq')::regclass) AS last`,
    );
    return last === null ? 0 : Number(last);
  }

  /** Keyset pagination, newest first, for exports that walk a whole filtered set. */
  async listBefore(filter: ExchangeFilter, before: { startedAt: Date; seq: number } | undefined, limit: number): Promise<StoredExchange[]> {
    const after = before ? Prisma.sql`AND (started_at, seq) < (${before.startedAt}::timestamptz, ${before.seq}::bigint)` : Prisma.empty;
    const rows = await this.rows(Prisma.sql`
      SELECT ${EXCHANGE_COLUMNS} FROM exchanges WHERE ${buildExchangeConditions(filter)} ${after}
      ${NEWEST_FIRST} LIMIT ${limit}::int`);
    return rows.map(toStoredExchange);
  }

  async deleteById(id: string): Promise<boolean> {
    return (await this.deleted(Prisma.sql`DELETE FROM exchanges WHERE id = ${id}::uuid`)) > 0;
  }

  async deleteMatching(filter: ExchangeFilter): Promise<number> {
    return this.deleted(Prisma.sql`DELETE FROM exchanges WHERE ${buildExchangeConditions(filter)}`);
  }

  /** Deletes exchanges that started before `cutoff`, in chunks so no statement holds locks for long. */
  async deleteStartedBefore(cutoff: Date, chunkSize = 5000, signal?: AbortSignal): Promise<number> {
    let total = 0;
    for (;;) {
      if (signal?.aborted) return total;
      const n = await this.deleted(Prisma.sql`
        DELETE FROM exchanges WHERE id IN (SELECT id FROM exchanges WHERE started_at < ${cutoff}::timestamptz LIMIT ${chunkSize}::int)`);
      total += n;
      if (n < chunkSize) return total;
    }
  }

  /** Keeps the newest `maxRows` by storage order; deletes the older ones in chunks. */
  async deleteBeyondNewest(maxRows: number, chunkSize = 5000, signal?: AbortSignal): Promise<number> {
    const boundary = await this.rows<{ seq: bigint | string }>(Prisma.sql`
      SELECT seq FROM exchanges ORDER BY seq DESC OFFSET ${maxRows}::bigint LIMIT 1`);
    if (boundary.length === 0) return 0;
    const upTo = boundary[0].seq;
    let total = 0;
    for (;;) {
      if (signal?.aborted) return total;
      const n = await this.deleted(Prisma.sql`
        DELETE FROM exchanges WHERE seq IN (SELECT seq FROM exchanges WHERE seq <= ${upTo}::bigint ORDER BY seq LIMIT ${chunkSize}::int)`);
      total += n;
      if (n < chunkSize) return total;
    }
  }
}

/** True when the filter has any condition at all. */
function hasConditions(filter: ExchangeFilter): boolean {
  return Object.values(filter).some((v) => v !== undefined && v !== false);
}

/**
 * The (seq, started_at) of the rows matching `url` and `others`, found through the URL condition alone:
 * its matches first (the fence of a materialized CTE), the other conditions checked on them. Left to
 * itself PostgreSQL ANDs the trigram index's bitmap with another index's, and a host's bitmap of 50,000
 * rows took longer to build than checking the host on the substring's 11,110 matches (35–46 against 14 ms for
 * `host=host-2.example.test&url=resource/42` over 1,000,000 rows; BENCHMARKS.md, "2026-11-26").
 */
function collectByUrl(url: Prisma.Sql, others: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    WITH url_matches AS MATERIALIZED (
      SELECT seq, started_at, method, status, host, duration_ms, source FROM exchanges WHERE ${url}
    )
    SELECT seq, started_at FROM url_matches WHERE ${others}`;
}

/** Which part of the URL substring the trigram index is asked for (see `chooseIndexedPart`). */
function urlOptions(filter: ExchangeFilter, sample: UrlSample | undefined): UrlConditionOptions {
  if (filter.urlContains === undefined || !sample) return {};
  return { urlIndexedPart: chooseIndexedPart(filter.urlContains, sample.trigrams) };
}

function isStatementTimeout(err: unknown): boolean {
  const text = `${(err as { code?: string }).code ?? ''} ${(err as Error).message ?? ''} ${JSON.stringify((err as { meta?: unknown }).meta ?? '')}`;
  return /57014|statement timeout|canceling statement/i.test(text);
}

function readPlanRows(plan: Row[]): number {
  const cell = plan[0]?.['QUERY PLAN'];
  const json = (typeof cell === 'string' ? JSON.parse(cell) : cell) as { Plan?: { 'Plan Rows'?: number } }[] | undefined;
  return Math.round(Number(json?.[0]?.Plan?.['Plan Rows'] ?? 0));
}

const INSERT_SPEC: [column: string, type: string][] = [
  ['id', 'uuid'],
  ['started_at', 'timestamptz'],
  ['duration_ms', 'float8'],
  ['source', 'text'],
  ['engine_id', 'text'],
  ['client_address', 'text'],
  ['correlation_id', 'text'],
  ['method', 'text'],
  ['url', 'text'],
  ['scheme', 'text'],
  ['host', 'text'],
  ['port', 'int'],
  ['path', 'text'],
  ['request_headers', 'jsonb'],
  ['request_body', 'text'],
  ['request_body_encoding', 'text'],
  ['request_body_size', 'int'],
  ['request_body_truncated', 'boolean'],
  ['request_content_type', 'text'],
  ['status', 'int'],
  ['status_message', 'text'],
  ['response_headers', 'jsonb'],
  ['response_body', 'text'],
  ['response_body_encoding', 'text'],
  ['response_body_size', 'int'],
  ['response_body_truncated', 'boolean'],
  ['response_content_type', 'text'],
  ['error', 'text'],
  ['tunnel_bytes_up', 'bigint'],
  ['tunnel_bytes_down', 'bigint'],
  ['matched_stub_id', 'text'],
  ['near_miss', 'text'],
];
const INSERT_COLUMNS = INSERT_SPEC.map(([c]) => c).join(', ');
const INSERT_RECORD_TYPE = INSERT_SPEC.map(([c, t]) => `${c} ${t}`).join(', ');
const INSERT_LOCK_SQL = `SELECT pg_advisory_xact_lock(${INSERT_LOCK_KEY})`;
const INSERT_SQL = `INSERT INTO exchanges (${INSERT_COLUMNS})
  SELECT ${INSERT_COLUMNS} FROM jsonb_to_recordset($1::jsonb) AS x(${INSERT_RECORD_TYPE})
  ON CONFLICT (id) DO NOTHING
  RETURNING seq`;

/** One element of the JSONB batch: every INSERT_SPEC column, none missing (NOT NULL ones never null). */
function toInsertRecord(x: NewExchange): Record<string, unknown> {
  return {
    id: x.id,
    started_at: x.startedAt.toISOString(),
    duration_ms: x.durationMs,
    source: x.source,
    engine_id: x.engineId,
    client_address: x.clientAddress,
    correlation_id: x.correlationId,
    method: x.method,
    url: x.url,
    scheme: x.scheme,
    host: x.host,
    port: x.port,
    path: x.path,
    request_headers: x.requestHeaders,
    request_body: x.requestBody?.data ?? null,
    request_body_encoding: x.requestBody?.encoding ?? null,
    request_body_size: x.requestBody?.size ?? 0,
    request_body_truncated: x.requestBody?.truncated ?? false,
    request_content_type: x.requestBody?.contentType ?? null,
    status: x.status,
    status_message: x.statusMessage,
    response_headers: x.responseHeaders,
    response_body: x.responseBody?.data ?? null,
    response_body_encoding: x.responseBody?.encoding ?? null,
    response_body_size: x.responseBody?.size ?? 0,
    response_body_truncated: x.responseBody?.truncated ?? false,
    response_content_type: x.responseBody?.contentType ?? null,
    error: x.error,
    tunnel_bytes_up: x.tunnelBytesUp,
    tunnel_bytes_down: x.tunnelBytesDown,
    matched_stub_id: x.matchedStubId,
    near_miss: x.nearMiss,
  };
}
