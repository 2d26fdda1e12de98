/**
 * Choosing what part of a URL substring to look up in the trigram (pg_trgm GIN) index.
 *
 * The `url` filter, `url_lower LIKE '%resource/4242?%'`, makes PostgreSQL intersect the posting lists of
 * every trigram of the pattern, including ones almost every URL has (`res`, `eso`, `our`, …): on a million rows each of those
 * lists holds a million entries and reading them costs ~30 ms, although the rare trigrams (`424`, `242`)
 * alone find the ten matches in under a millisecond. So the index is asked only for the longest part of
 * the substring whose trigrams are all rare in a sample of stored URLs (PostgreSQL's own column
 * statistics), and the whole substring is checked on the rows it returns. Any part of the substring is
 * implied by the substring, so the result is the same; only the cost changes.
 *
 * The trigram extraction mirrors pg_trgm's (`generate_trgm` for stored values, `generate_wildcard_trgm`
 * for LIKE patterns): lower-cased words of letters and digits, padded with two blanks before and one
 * after; a pattern's word gets no padding on a side that touches a `%`. It only steers the choice of the
 * part: a mismatch with pg_trgm (locale-specific letters, say) can cost speed, never a wrong answer.
 */

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Trigrams pg_trgm stores for a value (its `show_trgm`). */
export function storedTrigrams(value: string): Set<string> {
  const out = new Set<string>();
  for (const word of value.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (word) addTrigrams(out, `  ${word} `);
  }
  return out;
}

/**
 * Trigrams pg_trgm looks up for `LIKE '%piece%'` (the piece taken literally): a word touching the
 * piece's start or end is open on that side (the `%`), a word next to another character inside the
 * piece is padded on that side. Empty when the piece has no word of 3 characters with its padding.
 */
export function patternTrigrams(piece: string): Set<string> {
  const out = new Set<string>();
  const chars = Array.from(piece.toLowerCase());
  let i = 0;
  while (i < chars.length) {
    if (!WORD_CHAR.test(chars[i])) {
      i++;
      continue;
    }
    const start = i;
    while (i < chars.length && WORD_CHAR.test(chars[i])) i++;
    const word = chars.slice(start, i).join('');
    addTrigrams(out, `${start > 0 ? '  ' : ''}${word}${i < chars.length ? ' ' : ''}`);
  }
  return out;
}

function addTrigrams(out: Set<string>, padded: string): void {
  const c = Array.from(padded);
  for (let k = 0; k + 3 <= c.length; k++) out.add(c[k] + c[k + 1] + c[k + 2]);
}

/** Share of stored URLs holding each trigram, estimated from a weighted sample of URLs. */
export class TrigramFrequencies {
  private readonly share = new Map<string, number>();

  /** `sample`: URLs with the share of rows each stands for (PostgreSQL's most common values and histogram). */
  constructor(sample: { url: string; weight: number }[]) {
    for (const { url, weight } of sample) {
      for (const t of storedTrigrams(url)) this.share.set(t, (this.share.get(t) ?? 0) + weight);
    }
  }

  of(trigram: string): number {
    return this.share.get(trigram) ?? 0;
  }
}

/** A trigram in at most this share of the sampled URLs is rare: its posting list is cheap to read. */
export const RARE_TRIGRAM_SHARE = 0.02;
/** When no part has only rare trigrams, a part may add trigrams up to this share to one rare trigram. */
export const FALLBACK_TRIGRAM_SHARE = 0.3;
const MAX_PIECE_CHARS = 64;

/**
 * The part of `substring` to give the trigram index: the one with the most trigrams, all rare (ties: the
 * rarest in sum); failing that, the part with a rare trigram whose trigrams are the cheapest to read in
 * sum, none above FALLBACK_TRIGRAM_SHARE. Undefined when the whole substring is best given as it is:
 * every trigram is rare already, none is, or no part qualifies.
 */
export function chooseIndexedPart(substring: string, freq: TrigramFrequencies, rareShare = RARE_TRIGRAM_SHARE): string | undefined {
  const all = patternTrigrams(substring);
  if (all.size === 0) return undefined;
  const isRare = (t: string) => freq.of(t) <= rareShare;
  if ([...all].every(isRare)) return undefined;
  if (![...all].some(isRare)) return undefined;
  const rarest = bestPart(substring, freq, rareShare, rareShare, (a, b) => b.count - a.count || a.sum - b.sum || a.piece.length - b.piece.length);
  if (rarest) return rarest;
  return bestPart(substring, freq, Math.max(rareShare, FALLBACK_TRIGRAM_SHARE), rareShare, (a, b) => a.sum - b.sum || b.count - a.count || a.piece.length - b.piece.length);
}

interface Candidate {
  piece: string;
  count: number;
  sum: number;
}

/** Best part (by `order`) whose trigrams are all at most `maxShare`, one of them at most `rareShare`. */
function bestPart(
  substring: string,
  freq: TrigramFrequencies,
  maxShare: number,
  rareShare: number,
  order: (a: Candidate, b: Candidate) => number,
): string | undefined {
  const chars = Array.from(substring);
  let best: Candidate | undefined;
  for (let start = 0; start < chars.length; start++) {
    for (let end = start + 3; end <= Math.min(chars.length, start + MAX_PIECE_CHARS); end++) {
      const piece = chars.slice(start, end).join('');
      const shares = [...patternTrigrams(piece)].map((t) => freq.of(t));
      if (shares.some((x) => x > maxShare)) break; // a longer piece keeps this piece's trigrams
      if (!shares.some((x) => x <= rareShare)) continue;
      const candidate = { piece, count: shares.length, sum: shares.reduce((a, b) => a + b, 0) };
      if (!best || order(candidate, best) < 0) best = candidate;
    }
  }
  return best?.piece;
}
