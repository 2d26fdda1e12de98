import { Prisma, type PrismaClient } from '@mockyard/db';
import type { ExchangeFilter } from '../domain/exchange-filter';
import type { NewExchange, StoredExchange } from '../domain/stored-exchange';
import { buildExchangeConditions, EXCHANGE_COLUMNS, NEWEST_FIRST, toStoredExchange } from './exchange-sql';

/**
 * Inserts are serialised across logger instances by this transaction-scoped advisory lock, so `seq`
 * (taken inside the lock) becomes visible in commit order: a reader that saw seq N will never later
 * find a new row below N. The live feed's resume-by-seq relies on it.
 */
const INSERT_LOCK_KEY = 727_281;

export interface ListResult {
  items: StoredExchange[];
  hasMore: boolean;
}

export interface CountResult {
  count: number;
  exact: boolean;
}

type Row = Record<string, unknown>;

/** The `exchanges` table: batched idempotent inserts (Prisma) and the read queries (raw SQL through Prisma). */
export class ExchangeRepo {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Inserts the rows that are not stored yet (ON CONFLICT DO NOTHING) in one transaction; returns the
   * new seqs. One statement with the batch as a single JSONB parameter: measured about 10x faster
   * than Prisma's createMany for 500 rows (which binds ~16,000 parameters), see the README.
   */
  async insertMany(rows: NewExchange[]): Promise<number[]> {
    if (rows.length === 0) return [];
    const json = JSON.stringify(rows.map(toInsertRecord));
    const created = await this.prisma.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${INSERT_LOCK_KEY})`);
        return tx.$queryRaw<{ seq: bigint }[]>`
          INSERT INTO exchanges (${INSERT_COLUMNS})
          SELECT ${INSERT_COLUMNS} FROM jsonb_to_recordset(${json}::jsonb) AS x(${INSERT_RECORD_TYPE})
          ON CONFLICT (id) DO NOTHING
          RETURNING seq`;
      },
      { maxWait: 10_000, timeout: 60_000 },
    );
    return created.map((r) => Number(r.seq));
  }

  /** One page, newest first; fetches one extra row to know whether more follow. */
  async list(filter: ExchangeFilter, page: number, size: number): Promise<ListResult> {
    const rows = await this.prisma.$queryRaw<Row[]>`
      SELECT ${EXCHANGE_COLUMNS} FROM exchanges WHERE ${buildExchangeConditions(filter)}
      ${NEWEST_FIRST} LIMIT ${size + 1}::int OFFSET ${page * size}::bigint`;
    return { items: rows.slice(0, size).map(toStoredExchange), hasMore: rows.length > size };
  }

  /**
   * totalElements without paying for exact counts of large sets (an exact count over a million rows costs
   * far more than the read API's latency budget). PostgreSQL's planner estimate comes first (a plan, no
   * scan); when it is clearly above `exactLimit` it is the answer. Otherwise the matches are counted,
   * capped at exactLimit + 1 and bounded by `timeoutMs` (a rare filter without an index would scan the
   * table); a count that hits either bound falls back to the estimate.
   */
  async count(filter: ExchangeFilter, exactLimit: number, timeoutMs: number): Promise<CountResult> {
    const where = buildExchangeConditions(filter);
    const plan = await this.prisma.$queryRaw<Row[]>`EXPLAIN (FORMAT JSON) SELECT 1 FROM exchanges WHERE ${where}`;
    const estimate = readPlanRows(plan);
    if (estimate > exactLimit * 4) return { count: estimate, exact: false };
    try {
      const n = await this.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`);
        const [{ n }] = await tx.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM (SELECT 1 FROM exchanges WHERE ${where} LIMIT ${exactLimit + 1}::int) capped`;
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
    const rows = await this.prisma.$queryRaw<Row[]>`SELECT ${EXCHANGE_COLUMNS} FROM exchanges WHERE id = ${id}::uuid`;
    return rows[0] ? toStoredExchange(rows[0]) : undefined;
  }

  /** Rows stored after `afterSeq`, in storage order (the live feed's source). */
  async listAfterSeq(afterSeq: number, limit: number, filter: ExchangeFilter = {}): Promise<StoredExchange[]> {
    const rows = await this.prisma.$queryRaw<Row[]>`
      SELECT ${EXCHANGE_COLUMNS} FROM exchanges WHERE seq > ${afterSeq}::bigint AND ${buildExchangeConditions(filter)}
      ORDER BY seq LIMIT ${limit}::int`;
    return rows.map(toStoredExchange);
  }

  async maxSeq(): Promise<number> {
    const [{ max }] = await this.prisma.$queryRaw<{ max: bigint | number | null }[]>`SELECT max(seq) AS max FROM exchanges`;
    return max === null ? 0 : Number(max);
  }

  /** Keyset pagination, newest first, for exports that walk a whole filtered set. */
  async listBefore(filter: ExchangeFilter, before: { startedAt: Date; seq: number } | undefined, limit: number): Promise<StoredExchange[]> {
    const after = before ? Prisma.sql`AND (started_at, seq) < (${before.startedAt}::timestamptz, ${before.seq}::bigint)` : Prisma.empty;
    const rows = await this.prisma.$queryRaw<Row[]>`
      SELECT ${EXCHANGE_COLUMNS} FROM exchanges WHERE ${buildExchangeConditions(filter)} ${after}
      ${NEWEST_FIRST} LIMIT ${limit}::int`;
    return rows.map(toStoredExchange);
  }

  async deleteById(id: string): Promise<boolean> {
    return (await this.prisma.$executeRaw`DELETE FROM exchanges WHERE id = ${id}::uuid`) > 0;
  }

  async deleteMatching(filter: ExchangeFilter): Promise<number> {
    return this.prisma.$executeRaw`DELETE FROM exchanges WHERE ${buildExchangeConditions(filter)}`;
  }

  /** Deletes exchanges that started before `cutoff`, in chunks so no statement holds locks for long. */
  async deleteStartedBefore(cutoff: Date, chunkSize = 5000): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.prisma.$executeRaw`
        DELETE FROM exchanges WHERE id IN (SELECT id FROM exchanges WHERE started_at < ${cutoff}::timestamptz LIMIT ${chunkSize}::int)`;
      total += n;
      if (n < chunkSize) return total;
    }
  }

  /** Keeps the newest `maxRows` by storage order; deletes the older ones in chunks. */
  async deleteBeyondNewest(maxRows: number, chunkSize = 5000): Promise<number> {
    const boundary = await this.prisma.$queryRaw<{ seq: bigint }[]>`
      SELECT seq FROM exchanges ORDER BY seq DESC OFFSET ${maxRows}::bigint LIMIT 1`;
    if (boundary.length === 0) return 0;
    const upTo = boundary[0].seq;
    let total = 0;
    for (;;) {
      const n = await this.prisma.$executeRaw`
        DELETE FROM exchanges WHERE seq IN (SELECT seq FROM exchanges WHERE seq <= ${upTo}::bigint ORDER BY seq LIMIT ${chunkSize}::int)`;
      total += n;
      if (n < chunkSize) return total;
    }
  }
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
const INSERT_COLUMNS = Prisma.raw(INSERT_SPEC.map(([c]) => c).join(', '));
const INSERT_RECORD_TYPE = Prisma.raw(INSERT_SPEC.map(([c, t]) => `${c} ${t}`).join(', '));

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
