import type { DbHandle } from '@mockyard/db';
import { TrigramFrequencies } from '../domain/url-trigrams';

interface StatsRow {
  null_frac: number | null;
  mcv: string[] | null;
  mcf: number[] | null;
  hist: string[] | null;
}

export interface UrlSample {
  trigrams: TrigramFrequencies;
  /** Share of the sampled URLs containing `substring`, case-insensitively. */
  shareContaining(substring: string): number;
}

/**
 * Trigram shares of stored URLs, from PostgreSQL's column statistics of `exchanges.url_lower` (ANALYZE's
 * sample: the most common values with their frequencies and the histogram's bounds, each standing for
 * an equal share of the remaining rows). Free to read, refreshed by autovacuum; cached for `ttlMs`.
 * Undefined while the table has no statistics (never analyzed: then it is small and scans are cheap).
 */
export class UrlTrigramStats {
  private cached: { at: number; value: Promise<UrlSample | undefined> } | undefined;

  constructor(
    private readonly db: Pick<DbHandle, 'query'>,
    private readonly ttlMs = 60_000,
  ) {}

  sample(): Promise<UrlSample | undefined> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at > this.ttlMs) this.cached = { at: now, value: this.load() };
    return this.cached.value;
  }

  private async load(): Promise<UrlSample | undefined> {
    try {
      const rows = await this.db.query<StatsRow>(`
        SELECT null_frac::float8 AS null_frac, most_common_vals::text::text[] AS mcv,
               most_common_freqs::float8[] AS mcf, histogram_bounds::text::text[] AS hist
        FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'exchanges' AND attname = 'url_lower'`);
      const row = rows[0];
      if (!row || (!row.mcv?.length && !row.hist?.length)) return undefined;
      const mcv = row.mcv ?? [];
      const mcf = (row.mcf ?? []).map(Number);
      const hist = row.hist ?? [];
      const rest = Math.max(0, 1 - Number(row.null_frac ?? 0) - mcf.reduce((a, b) => a + b, 0));
      const sample = [...mcv.map((url, i) => ({ url, weight: mcf[i] ?? 0 })), ...hist.map((url) => ({ url, weight: rest / hist.length }))];
      const lower = sample.map(({ url, weight }) => ({ url: url.toLowerCase(), weight }));
      return {
        trigrams: new TrigramFrequencies(sample),
        shareContaining: (substring) => {
          const needle = substring.toLowerCase();
          return lower.reduce((share, { url, weight }) => (url.includes(needle) ? share + weight : share), 0);
        },
      };
    } catch {
      return undefined; // statistics are an optimisation: without them the substring goes to the index whole
    }
  }
}
