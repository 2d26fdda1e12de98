import type { Headers } from '@mockyard/contracts';

/** A header's value by case-insensitive name; repeated headers are joined with ", ". */
export function readHeader(headers: Headers | undefined | null, name: string): string | undefined {
  if (!headers) return undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted) return Array.isArray(value) ? value.join(', ') : value;
  }
  return undefined;
}

/** Headers as a flat list of [name, value] pairs, repeated headers as several pairs. */
export function listHeaders(headers: Headers | undefined | null): Array<[string, string]> {
  if (!headers) return [];
  return Object.entries(headers).flatMap(([key, value]) =>
    Array.isArray(value) ? value.map((v): [string, string] => [key, v]) : [[key, value] as [string, string]],
  );
}
