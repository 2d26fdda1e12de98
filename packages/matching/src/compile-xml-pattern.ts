import type { CompiledContentPattern } from './compiled-content-pattern';
import { findOperator } from './find-operator';
import { compileUserRegex } from './compile-user-regex';
import { joinPath, PatternError } from './pattern-error';
import { compileXPath, formatPrettyXml, isElementNode, parseXml, parseXmlCached, serializeXml, textOfNode, measureXmlDistance } from './xml-match';

type CompileFn = (spec: unknown, path: string) => CompiledContentPattern;

function optionalBoolean(spec: Record<string, unknown>, key: string, path: string): boolean {
  const value = spec[key];
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new PatternError(joinPath(path, key), `${key} must be a boolean`);
  return value;
}

/** `equalToXml`: semantic comparison; `${xmlunit.ignore}` placeholders when `enablePlaceholders`. */
export function compileXmlPattern(spec: Record<string, unknown>, expectedXml: string, path: string): CompiledContentPattern {
  const expectedDocument = parseXml(expectedXml);
  if (!expectedDocument) throw new PatternError(joinPath(path, 'equalToXml'), 'equalToXml is not well-formed XML');
  const exempted = spec.exemptedComparisons;
  if (exempted !== undefined && (!Array.isArray(exempted) || exempted.some((item) => typeof item !== 'string'))) {
    throw new PatternError(joinPath(path, 'exemptedComparisons'), 'exemptedComparisons must be an array of strings');
  }
  const options = {
    placeholder: optionalBoolean(spec, 'enablePlaceholders', path) ? compilePlaceholder(spec, path) : null,
    ignoreOrderOfSameNode: optionalBoolean(spec, 'ignoreOrderOfSameNode', path),
    exemptedComparisons: new Set<string>((exempted as string[] | undefined) ?? []),
  };
  return {
    operator: 'equalToXml', expected: expectedXml, isAbsent: false,
    distance: (actual) => {
      if (actual === undefined) return 1;
      const document = parseXmlCached(actual);
      return document ? measureXmlDistance(expectedDocument, document, options) : 1;
    },
  };
}

/** `matchesXPath`: a string expression, or `{expression, <one sub-matcher>}`; `xPathNamespaces` maps prefixes. */
export function compileXPathPattern(spec: Record<string, unknown>, value: unknown, path: string, compile: CompileFn): CompiledContentPattern {
  const namespaces = spec.xPathNamespaces;
  if (namespaces !== undefined && (typeof namespaces !== 'object' || namespaces === null || Object.values(namespaces).some((uri) => typeof uri !== 'string'))) {
    throw new PatternError(path.replace(/\.matchesXPath$/, '.xPathNamespaces'), 'xPathNamespaces must map prefixes to namespace URIs');
  }
  let expression: string;
  let sub: CompiledContentPattern | null = null;
  if (typeof value === 'string') expression = value;
  else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    if (typeof object.expression !== 'string') throw new PatternError(joinPath(path, 'expression'), 'matchesXPath needs an expression string');
    expression = object.expression;
    const rest = { ...object };
    delete rest.expression;
    if (Object.keys(rest).length > 0) {
      findOperator(rest, path);
      sub = compile(rest, path);
    }
  } else throw new PatternError(path, 'matchesXPath must be a string or {"expression": ..., <matcher>}');
  let compiled: ReturnType<typeof compileXPath>;
  try {
    compiled = compileXPath(expression, namespaces as Record<string, string> | undefined);
  } catch (error) {
    throw new PatternError(path, `invalid XPath ${expression}: ${(error as Error).message}`);
  }
  const subMatcher = sub;
  return {
    operator: 'matchesXPath', expected: subMatcher ? `${expression} [${subMatcher.operator}] ${subMatcher.expected}` : expression, isAbsent: false,
    distance: (actual) => {
      if (actual === undefined) return 1;
      const document = parseXmlCached(actual);
      if (!document) return 1;
      let result;
      try {
        result = compiled.evaluate(document);
      } catch {
        return 1;
      }
      if ('scalar' in result) {
        if (!subMatcher) return result.scalar === false || result.scalar === '' ? 1 : 0;
        return subMatcher.distance(String(result.scalar));
      }
      if (!subMatcher) return result.nodes.length > 0 ? 0 : 1;
      if (result.nodes.length === 0) return subMatcher.distance(undefined);
      let best = 1;
      for (const node of result.nodes) {
        const text = !isElementNode(node) ? textOfNode(node) : subMatcher.operator === 'equalToXml' ? serializeXml(node) : `${formatPrettyXml(node, 0, false)}\n`;
        best = Math.min(best, subMatcher.distance(text));
        if (best === 0) break;
      }
      return best;
    },
  };
}

/** XMLUnit's placeholder syntax, `${xmlunit.name}` or with custom delimiter regexes. */
function compilePlaceholder(spec: Record<string, unknown>, path: string): RegExp {
  const delimiter = (key: string, fallback: string): string => {
    const value = spec[key];
    if (value === undefined) return fallback;
    if (typeof value !== 'string') throw new PatternError(joinPath(path, key), `${key} must be a regex string`);
    const check = compileUserRegex(value);
    if (!check.ok) throw new PatternError(joinPath(path, key), check.message);
    return value;
  };
  const open = delimiter('placeholderOpeningDelimiterRegex', '\\$\\{');
  const close = delimiter('placeholderClosingDelimiterRegex', '\\}');
  return new RegExp(`^\\s*(?:${open})\\s*xmlunit\\.(\\w+)(?:\\((.*)\\))?\\s*(?:${close})\\s*$`, 's');
}
