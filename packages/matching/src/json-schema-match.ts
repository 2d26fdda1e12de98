import { compileUserRegex } from './compile-user-regex';
import { PatternError } from './pattern-error';

/**
 * A compact JSON Schema validator for `matchesJsonSchema` (drafts 4 to 2020-12, the keywords stubs use):
 * type, enum, const, properties, required, additionalProperties, patternProperties, propertyNames,
 * min/maxProperties, dependentRequired, items (schema or tuple), prefixItems, additionalItems, contains,
 * min/maxItems, uniqueItems, min/maxLength, pattern, minimum, maximum, exclusiveMinimum/Maximum (number or
 * draft-4 boolean), multipleOf, allOf, anyOf, oneOf, not, if/then/else, format (date, date-time, email,
 * uuid, uri, ipv4), local $ref (`#/definitions/x`, `#/$defs/x`, `#`). Unknown keywords are ignored.
 */
export type JsonSchema = boolean | Record<string, unknown>;

const FORMATS: Record<string, RegExp> = {
  date: /^\d{4}-\d{2}-\d{2}$/,
  'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  uuid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
  uri: /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/,
  ipv4: /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/,
};

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b) || (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null && !Array.isArray(a) && !Array.isArray(b) && JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b)));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]));
  return value;
}

/** Checks the schema once (shape, regexes); throws PatternError. */
export function checkJsonSchema(schema: unknown, path: string): void {
  if (typeof schema === 'boolean') return;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new PatternError(path, 'a JSON schema must be an object or a boolean');
  const record = schema as Record<string, unknown>;
  if (typeof record.pattern === 'string') {
    const check = compileUserRegex(`(?s).*(?:${record.pattern}).*`);
    if (!check.ok) throw new PatternError(path, check.message);
  }
  for (const key of ['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas']) {
    const group = record[key];
    if (group && typeof group === 'object') for (const sub of Object.values(group)) checkJsonSchema(sub, path);
  }
  if (record.patternProperties && typeof record.patternProperties === 'object') {
    for (const pattern of Object.keys(record.patternProperties)) {
      const check = compileUserRegex(`(?s).*(?:${pattern}).*`);
      if (!check.ok) throw new PatternError(path, check.message);
    }
  }
  for (const key of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) if (Array.isArray(record[key])) (record[key] as unknown[]).forEach((sub) => checkJsonSchema(sub, path));
  for (const key of ['not', 'if', 'then', 'else', 'additionalProperties', 'additionalItems', 'contains', 'propertyNames']) if (record[key] !== undefined) checkJsonSchema(record[key], path);
  if (record.items !== undefined) (Array.isArray(record.items) ? record.items : [record.items]).forEach((sub) => checkJsonSchema(sub, path));
}

function resolveRef(root: JsonSchema, ref: string): JsonSchema {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return true;
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return node === undefined ? true : (node as JsonSchema);
}

function patternTest(pattern: string, text: string): boolean {
  const check = compileUserRegex(`(?s).*(?:${pattern}).*`);
  return check.ok && check.regex.test(text);
}

/** True when `value` is valid against `schema`. */
export function isValidAgainstSchema(value: unknown, schema: JsonSchema, root: JsonSchema = schema, depth = 0): boolean {
  if (schema === true) return true;
  if (schema === false) return false;
  if (depth > 64) return false;
  const s = schema;
  const valid = (v: unknown, sub: unknown) => isValidAgainstSchema(v, sub as JsonSchema, root, depth + 1);
  if (typeof s.$ref === 'string' && !valid(value, resolveRef(root, s.$ref))) return false;
  const type = typeOf(value);
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    const ok = types.some((t) => t === type || (t === 'integer' && type === 'number' && Number.isInteger(value)) || (t === 'number' && type === 'number'));
    if (!ok) return false;
  }
  if (Array.isArray(s.enum) && !s.enum.some((item) => deepEqual(item, value))) return false;
  if (s.const !== undefined && !deepEqual(s.const, value)) return false;
  if (type === 'string') {
    const text = value as string;
    const length = [...text].length;
    if (typeof s.minLength === 'number' && length < s.minLength) return false;
    if (typeof s.maxLength === 'number' && length > s.maxLength) return false;
    if (typeof s.pattern === 'string' && !patternTest(s.pattern, text)) return false;
    if (typeof s.format === 'string' && FORMATS[s.format] && !FORMATS[s.format].test(text)) return false;
  }
  if (type === 'number') {
    const n = value as number;
    if (typeof s.minimum === 'number' && (s.exclusiveMinimum === true ? n <= s.minimum : n < s.minimum)) return false;
    if (typeof s.maximum === 'number' && (s.exclusiveMaximum === true ? n >= s.maximum : n > s.maximum)) return false;
    if (typeof s.exclusiveMinimum === 'number' && n <= s.exclusiveMinimum) return false;
    if (typeof s.exclusiveMaximum === 'number' && n >= s.exclusiveMaximum) return false;
    if (typeof s.multipleOf === 'number' && s.multipleOf > 0 && Math.abs(n / s.multipleOf - Math.round(n / s.multipleOf)) > 1e-9) return false;
  }
  if (type === 'object') {
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object);
    if (Array.isArray(s.required) && s.required.some((key) => !Object.hasOwn(object, key as string))) return false;
    if (typeof s.minProperties === 'number' && keys.length < s.minProperties) return false;
    if (typeof s.maxProperties === 'number' && keys.length > s.maxProperties) return false;
    const properties = (s.properties ?? {}) as Record<string, unknown>;
    const patternProperties = (s.patternProperties ?? {}) as Record<string, unknown>;
    for (const key of keys) {
      let covered = false;
      if (Object.hasOwn(properties, key)) {
        covered = true;
        if (!valid(object[key], properties[key])) return false;
      }
      for (const [pattern, sub] of Object.entries(patternProperties)) {
        if (patternTest(pattern, key)) {
          covered = true;
          if (!valid(object[key], sub)) return false;
        }
      }
      if (!covered && s.additionalProperties !== undefined && !valid(object[key], s.additionalProperties)) return false;
      if (s.propertyNames !== undefined && !valid(key, s.propertyNames)) return false;
    }
    if (s.dependentRequired && typeof s.dependentRequired === 'object') {
      for (const [key, needed] of Object.entries(s.dependentRequired as Record<string, unknown>)) {
        if (Object.hasOwn(object, key) && Array.isArray(needed) && needed.some((other) => !Object.hasOwn(object, other as string))) return false;
      }
    }
  }
  if (type === 'array') {
    const array = value as unknown[];
    if (typeof s.minItems === 'number' && array.length < s.minItems) return false;
    if (typeof s.maxItems === 'number' && array.length > s.maxItems) return false;
    if (s.uniqueItems === true && new Set(array.map((item) => JSON.stringify(sortKeys(item)))).size !== array.length) return false;
    const tuple = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : null;
    if (tuple) {
      for (let i = 0; i < array.length; i++) {
        if (i < tuple.length) {
          if (!valid(array[i], tuple[i])) return false;
        } else {
          const rest = Array.isArray(s.prefixItems) ? s.items : s.additionalItems;
          if (rest !== undefined && !valid(array[i], rest)) return false;
        }
      }
    } else if (s.items !== undefined && !array.every((item) => valid(item, s.items))) return false;
    if (s.contains !== undefined && !array.some((item) => valid(item, s.contains))) return false;
  }
  if (Array.isArray(s.allOf) && !s.allOf.every((sub) => valid(value, sub))) return false;
  if (Array.isArray(s.anyOf) && !s.anyOf.some((sub) => valid(value, sub))) return false;
  if (Array.isArray(s.oneOf) && s.oneOf.filter((sub) => valid(value, sub)).length !== 1) return false;
  if (s.not !== undefined && valid(value, s.not)) return false;
  if (s.if !== undefined) {
    const branch = valid(value, s.if) ? s.then : s.else;
    if (branch !== undefined && !valid(value, branch)) return false;
  }
  return true;
}
