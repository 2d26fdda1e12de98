-- Read-path indexes for the traffic log (traffic-logger's read API and live feed).
-- Every listing is ordered newest first by (started_at, seq), so each filter index ends with both
-- columns: the first page of any one filter is an index range scan that stops after `size` rows.

-- AlterTable: the producer's X-Request-Id (TrafficEvent.requestId)
ALTER TABLE "exchanges" ADD COLUMN "correlation_id" TEXT;

-- DropIndex
DROP INDEX IF EXISTS "exchanges_started_at_idx";
DROP INDEX IF EXISTS "exchanges_method_started_at_idx";
DROP INDEX IF EXISTS "exchanges_status_started_at_idx";
DROP INDEX IF EXISTS "exchanges_host_started_at_idx";
DROP INDEX IF EXISTS "exchanges_source_started_at_idx";

-- CreateIndex
CREATE INDEX "exchanges_started_at_seq_idx" ON "exchanges"("started_at" DESC, "seq" DESC);
CREATE INDEX "exchanges_method_started_at_seq_idx" ON "exchanges"("method", "started_at" DESC, "seq" DESC);
CREATE INDEX "exchanges_status_started_at_seq_idx" ON "exchanges"("status", "started_at" DESC, "seq" DESC);
CREATE INDEX "exchanges_host_started_at_seq_idx" ON "exchanges"("host", "started_at" DESC, "seq" DESC);
CREATE INDEX "exchanges_source_started_at_seq_idx" ON "exchanges"("source", "started_at" DESC, "seq" DESC);
-- Slow-request filter (minDurationMs): rare matches are found and counted through this instead of a scan.
CREATE INDEX "exchanges_duration_ms_idx" ON "exchanges"("duration_ms");

-- URL substring search (`url` filter, ILIKE '%…%'): a trigram index when the pg_trgm extension can be
-- created (PostgreSQL with contrib; not the embedded PGlite database, which then scans). Kept out of
-- schema.prisma on purpose: Prisma would need a preview feature to describe it.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
  CREATE INDEX IF NOT EXISTS "exchanges_url_trgm_idx" ON "exchanges" USING gin ("url" gin_trgm_ops);
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm unavailable (%): URL substring filters scan instead of using an index', SQLERRM;
END
$$;
