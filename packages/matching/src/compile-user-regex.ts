import ret, { types } from 'ret';
import type { Group, Repetition, Root, Token } from 'ret';

/**
 * User regexes (urlPattern, matches, doesNotMatch …) run in V8, which backtracks. A pattern such as
 * `^/(a+)+$` can take exponential time, so every user regex passes a static check here at validation
 * time and a rejected one makes stub creation fail with a message naming it.
 *
 * The check flags an outer repetition (unbounded, or bounded above 1: `(.*a){10}` is O(n^10)) whose body can split the same input in more
 * than one way: an inner repetition whose characters can also be matched by what follows it inside the
 * outer loop (including wrapping around to the loop's start), e.g. `(a+)+`, `(a*)*`, `(\w+\s?)*`,
 * `(.*,)*`; and alternations inside such a loop whose branches can start with the same character where
 * one branch is a single token (`(a|a)*`, `(\d|\w)+`). Delimited repeats such as `(/[a-z]+)*` or
 * `([^/]+/)*` pass. It is a heuristic: it errs on the side of rejecting.
 */

export type RegexCheck = { ok: true; regex: RegExp } | { ok: false; message: string };

/**
 * Outer repetitions with a larger max than this count as loops: even a bounded `(.*a){10}` backtracks
 * in O(n^10), so any repeat of more than one is analysed.
 */
const LARGE_REPEAT = 1;

const cache = new Map<string, RegexCheck>();

/**
 * Compiles a WireMock (Java-flavoured) regex for full-string matching (`Pattern.matches` semantics):
 * leading inline flags `(?i)`, `(?s)`, `(?m)` become JS flags. Returns a reason on failure.
 * `dotAll`: `.` matches line breaks too, as in WireMock's request matchers (`matches`, `doesNotMatch`, URL
 * patterns: Java's DOTALL, so `.*foo.*` matches a multi-line body); its template helpers and json-unit do not.
 */
export function compileUserRegex(source: string, options: { dotAll?: boolean } = {}): RegexCheck {
  const key = options.dotAll ? `s:${source}` : `-:${source}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const result = checkAndCompile(source, options.dotAll === true);
  if (cache.size > 5000) cache.clear();
  cache.set(key, result);
  return result;
}

function checkAndCompile(source: string, dotAll: boolean): RegexCheck {
  let body = source;
  let flags = dotAll ? 's' : '';
  const inline = /^\(\?([ims]+)\)/.exec(body);
  if (inline) {
    flags = [...new Set(inline[1] + flags)].join('');
    body = body.slice(inline[0].length);
  }
  let regex: RegExp;
  try {
    regex = new RegExp(`^(?:${body})$`, flags);
  } catch (error) {
    return { ok: false, message: `invalid regex ${JSON.stringify(source)}: ${(error as Error).message}` };
  }
  // the analysis must see `.` as the regex runs it: with the s flag it also matches line breaks
  const unsafe = findCatastrophicConstruct(body, flags.includes('s'));
  if (unsafe) return { ok: false, message: `regex ${JSON.stringify(source)} can backtrack catastrophically (${unsafe}); rewrite it without nested or overlapping repetition` };
  return { ok: true, regex };
}

// ---- static analysis over ret's token tree -------------------------------------------------------

type Tok = Token | Root;
/** ASCII bitmap (4 x 32 bits) plus a flag for "some non-ASCII character". */
interface CharSet {
  bits: Uint32Array;
  other: boolean;
}
interface First {
  set: CharSet;
  nullable: boolean;
}

function emptySet(): CharSet {
  return { bits: new Uint32Array(4), other: false };
}
function fullSet(): CharSet {
  return { bits: new Uint32Array([0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff]), other: true };
}
function addRange(set: CharSet, from: number, to: number): void {
  for (let c = from; c <= Math.min(to, 127); c++) set.bits[c >> 5] |= 1 << (c & 31);
  if (to > 127) set.other = true;
}
function union(a: CharSet, b: CharSet): CharSet {
  const out = emptySet();
  for (let i = 0; i < 4; i++) out.bits[i] = a.bits[i] | b.bits[i];
  out.other = a.other || b.other;
  return out;
}
function overlaps(a: CharSet, b: CharSet): boolean {
  for (let i = 0; i < 4; i++) if ((a.bits[i] & b.bits[i]) !== 0) return true;
  return a.other && b.other;
}

function charSetOf(token: Token): CharSet {
  if (token.type === types.CHAR) {
    const set = emptySet();
    addRange(set, token.value, token.value);
    return set;
  }
  if (token.type === types.SET) {
    let set = emptySet();
    for (const item of token.set) {
      if (item.type === types.CHAR) addRange(set, item.value, item.value);
      else if (item.type === types.RANGE) addRange(set, item.from, item.to);
      else set = union(set, charSetOf(item));
    }
    if (token.not) {
      const inverted = emptySet();
      for (let i = 0; i < 4; i++) inverted.bits[i] = ~set.bits[i];
      inverted.other = true;
      return inverted;
    }
    return set;
  }
  return fullSet();
}

function optionsOf(token: Group | Root): Token[][] {
  return token.options ?? [token.stack ?? []];
}

function firstOf(token: Token): First {
  switch (token.type) {
    case types.CHAR:
    case types.SET:
      return { set: charSetOf(token), nullable: false };
    case types.POSITION:
      return { set: emptySet(), nullable: true };
    case types.REFERENCE:
      return { set: fullSet(), nullable: true };
    case types.REPETITION: {
      const inner = firstOf(token.value);
      return { set: inner.set, nullable: inner.nullable || token.min === 0 };
    }
    case types.GROUP: {
      if (token.followedBy || token.notFollowedBy || token.lookBehind) return { set: emptySet(), nullable: true };
      let set = emptySet();
      let nullable = false;
      for (const option of optionsOf(token)) {
        const first = firstOfSequence(option, 0);
        set = union(set, first.set);
        nullable ||= first.nullable;
      }
      return { set, nullable };
    }
    default:
      return { set: fullSet(), nullable: true };
  }
}

function firstOfSequence(sequence: Token[], from: number): First {
  let set = emptySet();
  for (let i = from; i < sequence.length; i++) {
    const first = firstOf(sequence[i]);
    set = union(set, first.set);
    if (!first.nullable) return { set, nullable: false };
  }
  return { set, nullable: true };
}

/** Characters a token can consume at all (used for the inner repetition's body). */
function consumableOf(token: Token): CharSet {
  switch (token.type) {
    case types.CHAR:
    case types.SET:
      return charSetOf(token);
    case types.REPETITION:
      return consumableOf(token.value);
    case types.GROUP: {
      let set = emptySet();
      for (const option of optionsOf(token)) for (const item of option) set = union(set, consumableOf(item));
      return set;
    }
    case types.REFERENCE:
      return fullSet();
    default:
      return emptySet();
  }
}

function isUnbounded(repetition: Repetition): boolean {
  return repetition.max === null || repetition.max === Infinity || repetition.max > LARGE_REPEAT;
}

/** Returns a short description of the first catastrophic construct, or null when none is found. */
export function findCatastrophicConstruct(source: string, dotAll = false): string | null {
  let root: Root;
  try {
    root = ret(source) as Root;
  } catch {
    return null; // V8 accepted it (checked before); ret's dialect is narrower: trust V8's syntax, skip analysis
  }
  if (dotAll) widenDots(root);
  return scanToken(root);
}

/** ret reads `.` as "anything but a line break"; with the s flag it is anything (an empty negated set). */
function widenDots(token: Tok): void {
  if (token.type === types.SET && token.not && token.set.length === 4 && token.set.every((item) => item.type === types.CHAR && LINE_BREAKS.has(item.value))) {
    token.set = [];
    return;
  }
  if (token.type === types.ROOT || token.type === types.GROUP) for (const option of optionsOf(token)) option.forEach(widenDots);
  else if (token.type === types.REPETITION) widenDots(token.value);
}

const LINE_BREAKS = new Set([0x0a, 0x0d, 0x2028, 0x2029]);

function scanToken(token: Tok): string | null {
  if (token.type === types.ROOT || token.type === types.GROUP) {
    for (const option of optionsOf(token)) for (const item of option) {
      const found = scanToken(item);
      if (found) return found;
    }
    return null;
  }
  if (token.type !== types.REPETITION) return null;
  if (isUnbounded(token)) {
    const body = token.value;
    const wrap = firstOf(body).set;
    const sequence = body.type === types.GROUP && !body.options ? (body.stack ?? []) : [body];
    const found = body.type === types.GROUP && body.options ? scanAlternation(body, wrap) : scanSequence(sequence, wrap);
    if (found) return found;
  }
  return scanToken(token.value);
}

/** Walks a sequence inside an unbounded loop; `follow` is what may come after the sequence. */
function scanSequence(sequence: Token[], follow: CharSet): string | null {
  for (let i = 0; i < sequence.length; i++) {
    const rest = firstOfSequence(sequence, i + 1);
    const after = rest.nullable ? union(rest.set, follow) : rest.set;
    const token = sequence[i];
    if (token.type === types.REPETITION && (token.max === null || token.max > 1)) {
      if (overlaps(consumableOf(token.value), after)) return 'nested repetition';
      const inner = scanInside(token.value, after);
      if (inner) return inner;
    } else if (token.type === types.GROUP && !token.followedBy && !token.notFollowedBy && !token.lookBehind) {
      const inner = token.options ? scanAlternation(token, after) : scanSequence(token.stack ?? [], after);
      if (inner) return inner;
    }
  }
  return null;
}

function scanInside(token: Token, follow: CharSet): string | null {
  if (token.type !== types.GROUP) return null;
  return token.options ? scanAlternation(token, follow) : scanSequence(token.stack ?? [], follow);
}

function scanAlternation(group: Group, follow: CharSet): string | null {
  const options = group.options ?? [];
  const firsts = options.map((option) => firstOfSequence(option, 0));
  for (let a = 0; a < options.length; a++) {
    for (let b = a + 1; b < options.length; b++) {
      const single = options[a].length <= 1 || options[b].length <= 1;
      if (firsts[a].nullable || firsts[b].nullable || (single && overlaps(firsts[a].set, firsts[b].set))) return 'overlapping alternation';
    }
  }
  for (const option of options) {
    const found = scanSequence(option, follow);
    if (found) return found;
  }
  return null;
}

/**
 * The literal text every match of `source` must start with (`/api/v1/users/[0-9]+` -> `/api/v1/users/`),
 * used as a cheap startsWith filter before running the regex. Empty when unsure (alternation, flags).
 */
export function findLiteralPrefix(source: string): string {
  if (source.includes('|') || source.startsWith('(?')) return '';
  let i = source.startsWith('^') ? 1 : 0;
  let prefix = '';
  while (i < source.length) {
    let char = source[i];
    let width = 1;
    if (char === '\\') {
      const next = source[i + 1];
      if (next === undefined || /[A-Za-z0-9]/.test(next)) break; // classes (\d, \w …), back-references
      char = next;
      width = 2;
    } else if ('^$.|?*+()[]{}'.includes(char)) break;
    const following = source[i + width];
    if (following !== undefined && '?*+{'.includes(following)) break; // this char is quantified
    prefix += char;
    i += width;
  }
  return prefix;
}
