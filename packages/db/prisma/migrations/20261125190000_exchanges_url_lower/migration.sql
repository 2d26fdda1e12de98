-- The `url` substring filter is case-insensitive. As `url ILIKE '%…%'` it lowered every candidate row's
-- URL at read time (PostgreSQL's ILIKE calls lower() on the value for each row it checks), and a trigram
-- index returns candidates that must all be checked: 11,110 matches of `resource/42` on a million rows
-- cost ~20 ms of lowering and matching, against ~8 ms as a plain LIKE on a lowered copy
-- (BENCHMARKS.md, "Read API, URL substring, lowered once"). So the URL is lowered once, when the row is
-- written, into a generated column, and the filter and its trigram index use that column. pg_trgm lowers
-- trigrams itself, so the index holds the same trigrams as the one on `url` it replaces.
--
-- Adding a stored generated column rewrites the table (about 30 s for a million rows on a 2-core machine).

ALTER TABLE "exchanges" ADD COLUMN "url_lower" TEXT GENERATED ALWAYS AS (lower("url")) STORED;

-- The logger reads these statistics (the trigram sample and the planner's estimate, see
-- 20261122140000_exchanges_url_statistics); nothing reads `url`'s any more.
ALTER TABLE "exchanges" ALTER COLUMN "url_lower" SET STATISTICS 500;
ALTER TABLE "exchanges" ALTER COLUMN "url" SET STATISTICS -1;

DO $$
BEGIN
  DROP INDEX IF EXISTS "exchanges_url_trgm_idx";
  CREATE INDEX IF NOT EXISTS "exchanges_url_lower_trgm_idx" ON "exchanges" USING gin ("url_lower" gin_trgm_ops);
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm unavailable (%): URL substring filters scan instead of using an index', SQLERRM;
END
$$;

-- Statistics for the new column now, not at autovacuum's next visit: without them the filter cannot
-- tell a substring's rare part and gives the index the whole substring (correct, slower).
ANALYZE "exchanges";
