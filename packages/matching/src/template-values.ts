import type { HelperOptions } from 'handlebars';
import { formatJacksonJson } from './format-jackson-json';
import { isListOrSingle } from './list-or-single';
import { TemplateError } from './template-error';

/** Coercions shared by the template helpers (Handlebars hands helpers raw model values). */

export function isHelperOptions(value: unknown): value is HelperOptions {
  return typeof value === 'object' && value !== null && 'hash' in value && 'data' in value;
}

/** Splits helper arguments into positional values and Handlebars' options object. */
export function splitArgs(args: unknown[]): { values: unknown[]; options: HelperOptions } {
  const options = args[args.length - 1] as HelperOptions;
  return { values: args.slice(0, -1), options };
}

/** A model value as text: ListOrSingle/PathModel via toString, null/undefined as ''. */
export function toText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype) return JSON.stringify(value);
  return String(value);
}

/** A value for comparison: single-valued lists collapse, numeric strings stay strings. */
export function toComparable(value: unknown): unknown {
  if (isListOrSingle(value)) return value.length === 1 ? value[0] : value.toString();
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && typeof (value as { toString?: unknown }).toString === 'function' && Object.getPrototypeOf(value) !== Object.prototype) {
    return String(value);
  }
  return value;
}

/** Largest width a padding or format helper may produce, like range's and randomValue's bound. */
export const MAX_TEMPLATE_WIDTH = 100_000;

/** A width or precision a helper pads to: a whole number from 0 to MAX_TEMPLATE_WIDTH, else a TemplateError. */
export function toWidth(value: unknown, helper: string): number {
  const width = toNumber(value);
  if (!Number.isInteger(width) || width < 0 || width > MAX_TEMPLATE_WIDTH) throw new TemplateError(`${helper}: width must be a whole number from 0 to ${MAX_TEMPLATE_WIDTH}, got ${toText(value)}`);
  return width;
}

export function toNumber(value: unknown): number {
  const comparable = toComparable(value);
  if (typeof comparable === 'number') return comparable;
  if (typeof comparable === 'boolean') return comparable ? 1 : 0;
  const number = Number(toText(comparable).trim());
  return number;
}

export function isTruthy(value: unknown): boolean {
  const comparable = toComparable(value);
  if (Array.isArray(comparable)) return comparable.length > 0;
  if (typeof comparable === 'string') return comparable !== '' && comparable !== 'false';
  return Boolean(comparable);
}

/** Block helpers render `fn`/`inverse`; inline helpers return the boolean. */
export function conditional(result: boolean, context: unknown, options: HelperOptions): unknown {
  if (typeof options.fn === 'function') return result ? options.fn(context) : options.inverse(context);
  return result;
}

/** Stores a value where later `{{name}}` expressions in the same template find it. */
export function assignVariable(context: unknown, options: HelperOptions, name: string, value: unknown): void {
  if (context && typeof context === 'object') (context as Record<string, unknown>)[name] = value;
  const root = options.data?.root as Record<string, unknown> | undefined;
  if (root && root !== context) root[name] = value;
}

/**
 * JSON objects/arrays returned by helpers render as WireMock renders JSONPath results (objects in
 * Jackson's pretty layout, arrays compact) yet stay iterable and addressable.
 */
export function toRenderableJson(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const json = Array.isArray(value) ? JSON.stringify(value) : formatJacksonJson(value);
  const copy: unknown = Array.isArray(value) ? value.map(toRenderableJson) : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toRenderableJson(v)]));
  Object.defineProperty(copy, 'toString', { value: () => json, enumerable: false });
  Object.defineProperty(copy, 'toJSON', { value: () => value, enumerable: false });
  return copy;
}

/** Undoes toRenderableJson / ListOrSingle to plain JSON data. */
export function toPlainJson(value: unknown): unknown {
  if (isListOrSingle(value)) return value.length === 1 ? value[0] : [...value];
  if (value === null || typeof value !== 'object') return value;
  return JSON.parse(JSON.stringify(value)) as unknown;
}
