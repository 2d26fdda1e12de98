import type { CompiledRequestPattern } from './compile-request-pattern';
import type { RequestPattern } from './stub-mapping';

/**
 * When a pattern's URL part is an exact path (`urlPath`, or `url` whose path part is fixed) returns the
 * method (`ANY` when the pattern accepts several) and that path, so the engine can index stubs by path.
 * The key only narrows the candidates: the engine must still confirm each with matchRequestPattern
 * (a `url` stub also fixes the query string). Null for regex/template/absent URL matchers.
 */
export function exactPathKey(pattern: RequestPattern | CompiledRequestPattern): { method: string; path: string } | null {
  const source = (pattern as CompiledRequestPattern).compiled === true ? (pattern as CompiledRequestPattern).source : (pattern as RequestPattern);
  const method = typeof source.method === 'string' ? source.method.toUpperCase() : 'ANY';
  if (typeof source.urlPath === 'string') return { method, path: source.urlPath };
  if (typeof source.url === 'string') {
    const q = source.url.indexOf('?');
    return { method, path: q < 0 ? source.url : source.url.slice(0, q) };
  }
  return null;
}
