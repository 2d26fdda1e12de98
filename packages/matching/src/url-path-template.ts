export interface UrlPathTemplate {
  readonly template: string;
  readonly parameterNames: readonly string[];
  /** Parameter values, as sent (not URL-decoded, as WireMock), when the path fits the template, else null. */
  match(path: string): Record<string, string> | null;
  /** Share of segments that do not fit (0..1), for grading near misses. */
  segmentDistance(path: string): number;
}

const cache = new Map<string, UrlPathTemplate>();

/**
 * Compiles `/contacts/{contactId}/addresses/{addressId}`: each `{name}` stands for one whole path
 * segment. Throws on an empty or duplicated name, or a parameter that is only part of a segment.
 */
export function compileUrlPathTemplate(template: string): UrlPathTemplate {
  const cached = cache.get(template);
  if (cached) return cached;
  const segments = template.split('/');
  const names: string[] = [];
  const parts = segments.map((segment) => {
    const open = segment.indexOf('{');
    if (open < 0) {
      if (segment.includes('}')) throw new Error(`unbalanced '}' in URL path template ${template}`);
      return { literal: segment };
    }
    const match = /^\{([A-Za-z0-9_.-]+)\}$/.exec(segment);
    if (!match) throw new Error(`path parameter must be a whole segment such as {id}, got '${segment}' in ${template}`);
    if (names.includes(match[1])) throw new Error(`duplicate path parameter {${match[1]}} in ${template}`);
    names.push(match[1]);
    return { name: match[1] };
  });
  const compiled: UrlPathTemplate = {
    template,
    parameterNames: names,
    match(path: string): Record<string, string> | null {
      let start = 0;
      const values: Record<string, string> = {};
      for (let i = 0; i < parts.length; i++) {
        const last = i === parts.length - 1;
        const slash = path.indexOf('/', start);
        if (last ? slash >= 0 : slash < 0) return null;
        const end = last ? path.length : slash;
        const segment = path.slice(start, end);
        const part = parts[i];
        if (part.name !== undefined) {
          if (segment === '') return null;
          values[part.name] = segment;
        } else if (segment !== part.literal) return null;
        start = end + 1;
      }
      return values;
    },
    segmentDistance(path: string): number {
      const templateSegments = parts.filter((part) => part.literal !== '');
      const pathSegments = path.split('/').filter((segment) => segment !== '');
      let fitting = 0;
      for (let i = 0; i < Math.min(templateSegments.length, pathSegments.length); i++) {
        const part = templateSegments[i];
        if (part.name !== undefined || part.literal === pathSegments[i]) fitting++;
      }
      const total = Math.max(templateSegments.length, pathSegments.length);
      return total === 0 ? 0 : 1 - fitting / total;
    },
  };
  if (cache.size > 5000) cache.clear();
  cache.set(template, compiled);
  return compiled;
}

/** `matchUrlPathTemplate('/contacts/{contactId}', '/contacts/12')` -> `{ contactId: '12' }`, or null. */
export function matchUrlPathTemplate(template: string, path: string): Record<string, string> | null {
  return compileUrlPathTemplate(template).match(path);
}

