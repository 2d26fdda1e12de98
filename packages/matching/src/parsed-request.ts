import type { MatchableRequest } from './matchable-request';
import type { MultipartPart } from './parse-multipart';
import { parseMultipart } from './parse-multipart';

/** Derived views of a request, computed on first use and shared by every stub matched against it. */
export interface ParsedRequest {
  readonly path: string;
  readonly query: Record<string, string[]>;
  readonly bodyText: string;
  readonly form: Record<string, string[]>;
  /** Parts of a multipart/* body ([] otherwise). */
  readonly parts: MultipartPart[];
}

const cache = new WeakMap<MatchableRequest, ParsedRequest>();

/** A query or form component: `+` as space, then percent-decoded (as WireMock does). */
export function decodeComponent(value: string): string {
  return decodePercent(value.includes('+') ? value.replace(/\+/g, ' ') : value);
}

/** decodeURIComponent, or the text as it is when it is not valid percent-encoding (`+` stays `+`: paths). */
export function decodePercent(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `a=1&a=2&b` -> { a: ['1','2'], b: [''] } (URL-decoded, `+` as space, as WireMock does). */
export function parseQueryString(query: string): Record<string, string[]> {
  const result: Record<string, string[]> = Object.create(null);
  if (query === '') return result;
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodeComponent(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decodeComponent(pair.slice(eq + 1));
    (result[name] ??= []).push(value);
  }
  return result;
}

class LazyParsedRequest implements ParsedRequest {
  readonly path: string;
  private readonly queryText: string;
  private queryCache?: Record<string, string[]>;
  private bodyCache?: string;
  private formCache?: Record<string, string[]>;
  private partsCache?: MultipartPart[];

  constructor(private readonly request: MatchableRequest) {
    const url = request.url;
    const q = url.indexOf('?');
    this.path = q < 0 ? url : url.slice(0, q);
    this.queryText = q < 0 ? '' : url.slice(q + 1);
  }

  get query(): Record<string, string[]> {
    return (this.queryCache ??= parseQueryString(this.queryText));
  }

  get bodyText(): string {
    return (this.bodyCache ??= this.request.body.length === 0 ? '' : this.request.body.toString('utf8'));
  }

  get form(): Record<string, string[]> {
    return (this.formCache ??= parseQueryString(this.bodyText));
  }

  get parts(): MultipartPart[] {
    return (this.partsCache ??= parseMultipart(this.request.headers['content-type']?.[0], this.request.body));
  }
}

let lastRequest: MatchableRequest | undefined;
let lastParsed: ParsedRequest | undefined;

export function parseRequest(request: MatchableRequest): ParsedRequest {
  // One request is matched against many stubs in a row: a one-entry check skips the WeakMap.
  if (request === lastRequest) return lastParsed!;
  let parsed = cache.get(request);
  if (!parsed) {
    parsed = new LazyParsedRequest(request);
    cache.set(request, parsed);
  }
  lastRequest = request;
  lastParsed = parsed;
  return parsed;
}
