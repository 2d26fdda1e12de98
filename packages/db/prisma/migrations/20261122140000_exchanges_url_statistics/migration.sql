-- Finer statistics for `exchanges.url` (default target 100). The traffic-logger reads them twice for the
-- `url` substring filter: PostgreSQL's estimate of how many rows match (which picks between walking the
-- time index and collecting the matches through the trigram index) and the sample of URLs from which it
-- tells rare trigrams from ones almost every URL shares. With 100 histogram bounds both resolve about 1%
-- of the table and the estimate moved 4x between two ANALYZE runs; 500 resolves 0.2%. ANALYZE then
-- samples 150,000 rows instead of 30,000 (2.7 s instead of 0.5 s on a million rows on a busy 2-core machine), run by autovacuum.
ALTER TABLE "exchanges" ALTER COLUMN "url" SET STATISTICS 500;
