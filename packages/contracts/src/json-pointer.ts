/**
 * The keys a JSON pointer (RFC 6901: `/request/headers/a~1b`) names, unescaped (`~1` → `/`, `~0` → `~`); the
 * root (`''` or `/`) names none. How the hub and the dashboard read the `source.pointer` of an engine's
 * WireMock errors.
 */
export function jsonPointerSegments(pointer: string): string[] {
  return pointer
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}
