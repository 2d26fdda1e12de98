/**
 * JSON laid out like Jackson's default pretty printer, which WireMock uses for `formatJson`, `toJson`,
 * JSONPath objects in templates and the bodies in its not-matched report: `"key" : value`, objects one
 * field per line (2 spaces per object level), arrays inline as `[ 1, 2 ]`, empty ones as `{ }` / `[ ]`.
 */
export function formatJacksonJson(value: unknown): string {
  return format(value, 0);
}

function format(value: unknown, level: number): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[ ]';
    return `[ ${value.map((item) => format(item, level)).join(', ')} ]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    if (entries.length === 0) return '{ }';
    const inner = '  '.repeat(level + 1);
    return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)} : ${format(item, level + 1)}`).join(',\n')}\n${'  '.repeat(level)}}`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return 'null';
  return JSON.stringify(value);
}
