/** Headers that describe one connection, never forwarded (RFC 9110 §7.6.1, plus the legacy proxy ones). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** One header as set on an outgoing message: first-seen spelling, every value in order. */
export type HeaderEntry = [name: string, value: string | string[]];

/**
 * Groups raw headers (`[name, value, name, value…]`) by name, dropping hop-by-hop headers, the ones the
 * Connection header lists, and those in `drop` (lower-case).
 */
export function stripHopByHopHeaders(rawHeaders: readonly string[], drop: readonly string[] = []): HeaderEntry[] {
  const listed = connectionListed(rawHeaders, new Set(drop));
  const grouped = new Map<string, HeaderEntry>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const lower = rawHeaders[i].toLowerCase();
    if (HOP_BY_HOP.has(lower) || listed?.has(lower)) continue;
    const existing = grouped.get(lower);
    if (!existing) grouped.set(lower, [rawHeaders[i], rawHeaders[i + 1]]);
    else existing[1] = [...(Array.isArray(existing[1]) ? existing[1] : [existing[1]]), rawHeaders[i + 1]];
  }
  return [...grouped.values()];
}

/**
 * The end-to-end headers of a message in raw form (`[name, value, …]`, repeats kept, spelling kept): what
 * `writeHead` takes directly. Drops what `stripHopByHopHeaders` drops.
 */
export function filterRawHeaders(rawHeaders: readonly string[], drop: readonly string[] = []): string[] {
  const listed = connectionListed(rawHeaders);
  const out: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const lower = rawHeaders[i].toLowerCase();
    if (HOP_BY_HOP.has(lower) || listed?.has(lower) || (drop.length > 0 && drop.includes(lower))) continue;
    out.push(rawHeaders[i], rawHeaders[i + 1]);
  }
  return out;
}

/**
 * The header names the Connection header(s) list (lower-case), added to `into`; undefined when there is no
 * Connection header and no `into`. Tokens are trimmed of optional whitespace (SP, HTAB) only.
 */
function connectionListed(rawHeaders: readonly string[], into?: Set<string>): Set<string> | undefined {
  let listed = into;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i].length !== 10 || rawHeaders[i].toLowerCase() !== 'connection') continue;
    listed ??= new Set();
    for (const token of rawHeaders[i + 1].split(',')) listed.add(token.replace(OWS_AROUND, '').toLowerCase());
  }
  return listed;
}

const OWS_AROUND = /^[ \t]+|[ \t]+$/g;

export interface ForwardedFor {
  /** Address of the client connected to the gateway. */
  clientAddress: string | undefined;
  /** Scheme the client used to reach the gateway. */
  proto: 'http' | 'https';
  /** Host header the client sent to the gateway. */
  host: string | undefined;
}

/**
 * The headers of the upstream request: the client's, minus hop-by-hop ones, with Host set to the target
 * and X-Forwarded-For (appended to), -Proto and -Host describing the client's request. User-info in the
 * target (`http://user:pass@host/`) becomes `Authorization: Basic`, as curl and browsers send it, unless the
 * client sent an Authorization header of its own.
 */
export function buildUpstreamHeaders(rawHeaders: readonly string[], target: URL, forwarded: ForwardedFor): HeaderEntry[] {
  // `Expect: 100-continue` was answered by the gateway's own server; the target gets the body right away.
  const entries = stripHopByHopHeaders(rawHeaders, ['host', 'expect', 'x-forwarded-proto', 'x-forwarded-host']);
  const xffIndex = entries.findIndex(([name]) => name.toLowerCase() === 'x-forwarded-for');
  const priorFor = xffIndex >= 0 ? ([] as string[]).concat(entries[xffIndex][1]).join(', ') : '';
  if (xffIndex >= 0) entries.splice(xffIndex, 1);
  const chain = [priorFor, forwarded.clientAddress].filter(Boolean).join(', ');
  if ((target.username || target.password) && !entries.some(([name]) => name.toLowerCase() === 'authorization')) {
    const credentials = `${decodeUserInfo(target.username)}:${decodeUserInfo(target.password)}`;
    entries.push(['Authorization', `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`]);
  }
  return [
    ['Host', target.host],
    ...entries,
    ...(chain ? ([['X-Forwarded-For', chain]] as HeaderEntry[]) : []),
    ['X-Forwarded-Proto', forwarded.proto],
    ...(forwarded.host ? ([['X-Forwarded-Host', forwarded.host]] as HeaderEntry[]) : []),
  ];
}

/** Flattens entries into the raw array form `http.request` accepts, keeping repeated headers. */
export function toRawHeaders(entries: readonly HeaderEntry[]): string[] {
  const raw: string[] = [];
  for (const [name, value] of entries) {
    if (Array.isArray(value)) for (const v of value) raw.push(name, v);
    else raw.push(name, value);
  }
  return raw;
}

/** A user-info part percent-decoded; as written when it is not valid percent-encoding (`%zz`). */
function decodeUserInfo(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
