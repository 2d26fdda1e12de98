/**
 * Deepest nesting WireMock's Jackson accepts (StreamReadConstraints' default maxNestingDepth). The matching
 * and formatting code walks JSON recursively, so anything deeper would overflow the stack: such documents
 * are refused at the door (stub definitions) or treated as not JSON (request bodies).
 */
export const MAX_JSON_NESTING_DEPTH = 1000;

/**
 * Whether JSON text nests objects/arrays deeper than `maxDepth`, by one scan of the text (no parse, no
 * recursion), so it is safe on any input. Brackets inside strings do not count.
 */
export function exceedsJsonNestingDepth(text: string, maxDepth = MAX_JSON_NESTING_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
