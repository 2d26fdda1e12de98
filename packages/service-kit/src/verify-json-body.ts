import { HttpProblem } from './http-problem';

/** Deepest JSON nesting a service accepts (Jackson's default, as the engine's stub JSON). */
export const MAX_JSON_NESTING_DEPTH = 1000;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * body-parser `verify` hook for JSON bodies: refuses bytes that are not UTF-8 (the parser would silently
 * turn them into U+FFFD and store that) and nesting deeper than MAX_JSON_NESTING_DEPTH (validation and
 * serialisation recurse, so a deep document could overflow the stack far from the door). Both are 400.
 */
export function verifyJsonBody(_req: unknown, _res: unknown, buf: Buffer): void {
  let text: string;
  try {
    text = strictUtf8.decode(buf);
  } catch {
    throw HttpProblem.badRequest('Malformed JSON body: it is not valid UTF-8');
  }
  if (exceedsNestingDepth(text, MAX_JSON_NESTING_DEPTH)) {
    throw HttpProblem.badRequest(`Malformed JSON body: it nests deeper than ${MAX_JSON_NESTING_DEPTH} levels`);
  }
}

/** One scan of the text, brackets inside strings ignored (twin of @mockyard/matching's exceedsJsonNestingDepth). */
export function exceedsNestingDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
