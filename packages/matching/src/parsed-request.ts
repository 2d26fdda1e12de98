import type { MatchableRequest } from './matchable-request';

/** Derived views of a request, computed on first use and shared by every stub matched against it. */
export interface ParsedRequest {
  readonly path: string;
  readonly query: Record<string, string[]>;
  readonly bodyText: string;
  readonly form: Record<string, string[]>;
}

const cache = new WeakMap<MatchableRequest, ParsedRequest>();

export function decodeComponent(value: string): string {
  const spaced = value.includes('+') ? value.replace(/\+/g, ' ') : value;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
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
}

export function parseRequest(request: MatchableRequest): ParsedRequest {
  let parsed = cache.get(request);
  if (!parsed) {
    parsed = new LazyParsedRequest(request);
    cache.set(request, parsed);
  }
  return parsed;
}
