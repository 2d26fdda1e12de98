import type { HelperDelegate, HelperOptions } from 'handlebars';
import { compileJsonPathQuery } from './compile-json-path-pattern';
import { isListOrSingle } from './list-or-single';
import { TemplateError } from './template-error';
import { assignVariable, renderableJson, splitArgs, toPlainJson, toText } from './template-values';

function parseJsonInput(value: unknown, helper: string): unknown {
  if (value === undefined || value === null) throw new TemplateError(`${helper}: no JSON input`);
  if (typeof value === 'object' && !isListOrSingle(value) && (Array.isArray(value) || Object.hasOwn(value, 'toJSON') || Object.getPrototypeOf(value) === Object.prototype)) {
    return toPlainJson(value);
  }
  try {
    return JSON.parse(toText(value)) as unknown;
  } catch {
    throw new TemplateError(`${helper}: input is not valid JSON`);
  }
}

function deepMerge(base: unknown, extra: unknown): unknown {
  if (base && extra && typeof base === 'object' && typeof extra === 'object' && !Array.isArray(base) && !Array.isArray(extra)) {
    const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
    for (const [key, value] of Object.entries(extra as Record<string, unknown>)) out[key] = key in out ? deepMerge(out[key], value) : value;
    return out;
  }
  return extra;
}

export const jsonHelpers: Record<string, HelperDelegate> = {
  /** `{{jsonPath request.body '$.name' default='x'}}` */
  jsonPath(...args: unknown[]) {
    const { values, options } = splitArgs(args);
    const [input, expression] = values;
    const fallback = options.hash.default;
    if (typeof expression !== 'string') throw new TemplateError('jsonPath: the second argument must be a JSONPath expression');
    let json: unknown;
    try {
      json = parseJsonInput(input, 'jsonPath');
    } catch (error) {
      if (fallback !== undefined) return fallback;
      throw error;
    }
    let query;
    try {
      query = compileJsonPathQuery(expression, 'jsonPath');
    } catch (error) {
      throw new TemplateError(`jsonPath: ${(error as Error).message}`);
    }
    const results = query.select(json);
    if (results.length === 0 || (results.length === 1 && (results[0] === null || results[0] === undefined))) return fallback ?? '';
    return renderableJson(query.isIndefinite ? results : results[0]);
  },
  /** `{{parseJson request.body}}`, `{{parseJson request.body 'var'}}`, `{{#parseJson 'var'}}{...}{{/parseJson}}` */
  parseJson(this: unknown, ...args: unknown[]) {
    const { values, options } = splitArgs(args);
    if (typeof options.fn === 'function') {
      const parsed = renderableJson(parseJsonInput(options.fn(this), 'parseJson'));
      if (typeof values[0] === 'string') {
        assignVariable(this, options, values[0], parsed);
        return '';
      }
      return parsed;
    }
    const parsed = renderableJson(parseJsonInput(values[0], 'parseJson'));
    if (typeof values[1] === 'string') {
      assignVariable(this, options, values[1], parsed);
      return '';
    }
    return parsed;
  },
  toJson(...args: unknown[]) {
    const { values } = splitArgs(args);
    return JSON.stringify(toPlainJson(values[0]) ?? null);
  },
  /** `{{formatJson request.body}}` pretty; `format='compact'` for one line. */
  formatJson(this: unknown, ...args: unknown[]) {
    const { values, options } = splitArgs(args);
    const input = typeof options.fn === 'function' ? options.fn(this) : values[0];
    const json = parseJsonInput(input, 'formatJson');
    return options.hash.format === 'compact' ? JSON.stringify(json) : JSON.stringify(json, null, 2);
  },
  /** `{{jsonMerge a b}}`: b's fields deep-merged over a's. */
  jsonMerge(this: unknown, ...args: unknown[]) {
    const { values, options } = splitArgs(args);
    const second = typeof options.fn === 'function' ? options.fn(this) : values[1];
    return JSON.stringify(deepMerge(parseJsonInput(values[0], 'jsonMerge'), parseJsonInput(second, 'jsonMerge')));
  },
  /** `{{jsonArrayAdd array item}}` -> JSON array with item appended. */
  jsonArrayAdd(...args: unknown[]) {
    const { values } = splitArgs(args);
    const array = parseJsonInput(values[0], 'jsonArrayAdd');
    if (!Array.isArray(array)) throw new TemplateError('jsonArrayAdd: the first argument must be a JSON array');
    const item = typeof values[1] === 'string' ? (() => { try { return JSON.parse(values[1] as string) as unknown; } catch { return values[1]; } })() : toPlainJson(values[1]);
    return JSON.stringify([...array, item]);
  },
  /** `{{jsonRemove json '$.field'}}` -> JSON without the fields the path selects (simple paths). */
  jsonRemove(...args: unknown[]) {
    const { values } = splitArgs(args);
    const json = parseJsonInput(values[0], 'jsonRemove');
    const path = String(values[1] ?? '');
    const match = /^\$((?:\.[A-Za-z_$][\w$-]*|\[\d+\]|\['[^']+'\])+)$/.exec(path);
    if (!match) throw new TemplateError(`jsonRemove: unsupported path ${path}`);
    const keys = [...match[1].matchAll(/\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['([^']+)'\]/g)].map((m) => m[1] ?? (m[2] !== undefined ? Number(m[2]) : m[3]));
    let parent: unknown = json;
    for (const key of keys.slice(0, -1)) parent = parent && typeof parent === 'object' ? (parent as Record<string, unknown>)[key as string] : undefined;
    const last = keys[keys.length - 1];
    if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
    else if (parent && typeof parent === 'object') delete (parent as Record<string, unknown>)[last as string];
    return JSON.stringify(json);
  },
};

export type { HelperOptions };
