/** Above this many cells the exact O(n*m) distance is replaced by a prefix/suffix estimate. */
const MAX_EXACT_CELLS = 250_000;

/**
 * Levenshtein distance divided by the longer length: 0 for equal strings, 1 for nothing in common.
 * Long inputs (bodies) use an estimate after trimming the common prefix and suffix, so a 1 MB body never
 * costs quadratic time.
 */
export function normalisedLevenshtein(a: string, b: string): number {
  if (a === b) return 0;
  const maxLength = Math.max(a.length, b.length);
  if (maxLength === 0) return 0;
  let start = 0;
  const minLength = Math.min(a.length, b.length);
  while (start < minLength && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  const lengthA = endA - start;
  const lengthB = endB - start;
  if (lengthA === 0 || lengthB === 0) return Math.max(lengthA, lengthB) / maxLength;
  if (lengthA * lengthB > MAX_EXACT_CELLS) return Math.max(lengthA, lengthB) / maxLength;
  return levenshtein(a, start, endA, b, start, endB) / maxLength;
}

let row: Uint32Array = new Uint32Array(64);

function levenshtein(a: string, fromA: number, toA: number, b: string, fromB: number, toB: number): number {
  const lengthB = toB - fromB;
  if (row.length < lengthB + 1) row = new Uint32Array(lengthB + 1);
  for (let j = 0; j <= lengthB; j++) row[j] = j;
  for (let i = fromA; i < toA; i++) {
    let previousDiagonal = row[0];
    row[0] = i - fromA + 1;
    const charA = a.charCodeAt(i);
    for (let j = 1; j <= lengthB; j++) {
      const saved = row[j];
      const cost = charA === b.charCodeAt(fromB + j - 1) ? 0 : 1;
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previousDiagonal + cost);
      previousDiagonal = saved;
    }
  }
  return row[lengthB];
}
