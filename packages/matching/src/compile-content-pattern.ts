import { compileUserRegex } from './compile-user-regex';
import type { CompiledContentPattern } from './compiled-content-pattern';
import { distanceOfJsonValue, parseJsonCached } from './compiled-content-pattern';
import { compileDatePattern } from './compile-date-pattern';
import { checkJsonPlaceholders, measureJsonDistance } from './json-equality';
import { checkJsonSchema, isValidAgainstSchema, type JsonSchema } from './json-schema-match';
import { compileJsonPathPattern } from './compile-json-path-pattern';
import { compileXmlPattern, compileXPathPattern } from './compile-xml-pattern';
import { findOperator } from './find-operator';
import { formatJacksonJson } from './format-jackson-json';
import { normalisedLevenshtein } from './normalised-levenshtein';
import { joinPath, PatternError } from './pattern-error';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requireString(value: unknown, path: string, operator: string): string {
  if (typeof value === 'string') return value;
  throw new PatternError(path, `${operator} operand must be a non-null string`);
}

function requireBoolean(spec: Record<string, unknown>, key: string, path: string): boolean {
  const value = spec[key];
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new PatternError(joinPath(path, key), `${key} must be a boolean`);
  return value;
}

/**
 * Validates and compiles one ContentPattern (`{"equalTo": "x"}` …). Throws PatternError naming the
 * path and what is wrong; regexes are compiled and checked for catastrophic backtracking here.
 */
export function compileContentPattern(spec: unknown, path: string): CompiledContentPattern {
  if (!isRecord(spec)) throw new PatternError(path, 'a match pattern must be an object such as {"equalTo": "value"}');
  const operator = findOperator(spec, path);
  const value = spec[operator];
  const valuePath = joinPath(path, operator);
  switch (operator) {
    case 'equalTo': {
      const expected = requireString(value, valuePath, operator);
      const caseInsensitive = requireBoolean(spec, 'caseInsensitive', path);
      const comparable = caseInsensitive ? expected.toLowerCase() : expected;
      return {
        operator, expected, isAbsent: false,
        distance: (actual) => (actual === undefined ? 1 : normalisedLevenshtein(comparable, caseInsensitive ? actual.toLowerCase() : actual)),
      };
    }
    case 'binaryEqualTo': {
      const expected = requireString(value, valuePath, operator);
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(expected)) throw new PatternError(valuePath, 'binaryEqualTo must be base64');
      const bytes = Buffer.from(expected, 'base64');
      const distanceBytes = (actual: Buffer): number => (bytes.equals(actual) ? 0 : 1);
      return { operator, expected, isAbsent: false, distanceBytes, distance: (actual) => (actual === undefined ? 1 : distanceBytes(Buffer.from(actual, 'utf8'))) };
    }
    case 'contains':
    case 'doesNotContain': {
      const expected = requireString(value, valuePath, operator);
      const negate = operator === 'doesNotContain';
      return {
        operator, expected, isAbsent: false,
        distance: (actual) => (actual === undefined ? (negate ? 0 : 1) : actual.includes(expected) !== negate ? 0 : 1),
      };
    }
    case 'matches':
    case 'doesNotMatch': {
      const expected = requireString(value, valuePath, operator);
      const check = compileUserRegex(expected, { dotAll: true });
      if (!check.ok) throw new PatternError(valuePath, check.message);
      const regex = check.regex;
      const negate = operator === 'doesNotMatch';
      return {
        operator, expected, isAbsent: false,
        distance: (actual) => (actual === undefined ? (negate ? 0 : 1) : regex.test(actual) !== negate ? 0 : 1),
      };
    }
    case 'absent': {
      // WireMock treats any `absent` key as "must be absent", `"absent": false` included.
      if (typeof value !== 'boolean') throw new PatternError(valuePath, 'absent must be a boolean');
      return { operator, expected: '', isAbsent: true, distance: (actual) => (actual === undefined ? 0 : 1) };
    }
    case 'equalToJson':
      return compileEqualToJson(spec, value, path, valuePath);
    case 'matchesJsonPath':
      return compileJsonPathPattern(value, valuePath, compileContentPattern);
    case 'matchesJsonSchema':
      return compileJsonSchemaPattern(spec, value, path, valuePath);
    case 'equalToXml':
      return compileXmlPattern(spec, requireString(value, valuePath, operator), path);
    case 'matchesXPath':
      return compileXPathPattern(spec, value, valuePath, compileContentPattern);
    case 'before':
    case 'after':
    case 'equalToDateTime':
      return compileDatePattern(operator, spec, requireString(value, valuePath, operator), path);
    case 'and':
    case 'or': {
      if (!Array.isArray(value) || value.length === 0) throw new PatternError(valuePath, `${operator} must be a non-empty array of match patterns`);
      const parts = value.map((item, index) => compileContentPattern(item, joinPath(valuePath, index)));
      return compileLogical(operator, parts);
    }
    case 'not': {
      const inner = compileContentPattern(value, valuePath);
      return {
        operator, expected: `${inner.operator} ${inner.expected}`, isAbsent: false,
        distance: (actual) => (inner.distance(actual) === 0 ? 1 : 0),
        distanceJson: (actual) => (distanceOfJsonValue(inner, actual) === 0 ? 1 : 0),
      };
    }
  }
  throw new PatternError(path, `unknown match operator '${operator}'`);
}

function compileLogical(operator: 'and' | 'or', parts: CompiledContentPattern[]): CompiledContentPattern {
  const expected = parts.map((part) => `${part.operator} ${part.expected}`).join(operator === 'and' ? ' AND ' : ' OR ');
  const combine = (distances: number[]): number => {
    if (operator === 'or') return Math.min(...distances);
    if (distances.every((d) => d === 0)) return 0;
    return Math.max(distances.reduce((sum, d) => sum + d, 0) / distances.length, 0.01);
  };
  return {
    operator, expected, isAbsent: false,
    distance: (actual) => combine(parts.map((part) => part.distance(actual))),
    distanceJson: (actual) => combine(parts.map((part) => distanceOfJsonValue(part, actual))),
  };
}

function compileEqualToJson(spec: Record<string, unknown>, value: unknown, path: string, valuePath: string): CompiledContentPattern {
  let expectedJson: unknown = value;
  if (typeof value === 'string') {
    try {
      expectedJson = JSON.parse(value);
    } catch (error) {
      throw new PatternError(valuePath, `equalToJson is not valid JSON: ${(error as Error).message}`);
    }
  }
  if (expectedJson === undefined) throw new PatternError(valuePath, 'equalToJson needs a JSON value');
  checkJsonPlaceholders(expectedJson, valuePath);
  const options = { ignoreArrayOrder: requireBoolean(spec, 'ignoreArrayOrder', path), ignoreExtraElements: requireBoolean(spec, 'ignoreExtraElements', path) };
  const distanceJson = (actual: unknown): number => (actual === undefined ? 1 : measureJsonDistance(expectedJson, actual, options));
  return {
    operator: 'equalToJson', expected: formatJacksonJson(expectedJson), isAbsent: false,
    distanceJson,
    distance: (actual) => {
      if (actual === undefined) return 1;
      const parsed = parseJsonCached(actual);
      return parsed.ok ? distanceJson(parsed.value) : 1;
    },
  };
}

const SCHEMA_VERSIONS = ['V4', 'V6', 'V7', 'V201909', 'V202012'];

function compileJsonSchemaPattern(spec: Record<string, unknown>, value: unknown, path: string, valuePath: string): CompiledContentPattern {
  let schema: unknown = value;
  if (typeof value === 'string') {
    try {
      schema = JSON.parse(value);
    } catch (error) {
      throw new PatternError(valuePath, `matchesJsonSchema is not valid JSON: ${(error as Error).message}`);
    }
  }
  checkJsonSchema(schema, valuePath);
  if (spec.schemaVersion !== undefined && !SCHEMA_VERSIONS.includes(spec.schemaVersion as string)) {
    throw new PatternError(joinPath(path, 'schemaVersion'), `schemaVersion must be one of ${SCHEMA_VERSIONS.join(', ')}`);
  }
  const distanceJson = (actual: unknown): number => (actual !== undefined && isValidAgainstSchema(actual, schema as JsonSchema) ? 0 : 1);
  return {
    operator: 'matchesJsonSchema', expected: formatJacksonJson(schema), isAbsent: false,
    distanceJson,
    distance: (actual) => {
      if (actual === undefined) return 1;
      const parsed = parseJsonCached(actual);
      return parsed.ok ? distanceJson(parsed.value) : distanceJson(actual);
    },
  };
}
