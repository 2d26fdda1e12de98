import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import * as xpath from 'xpath';
import { compileUserRegex } from './compile-user-regex';
import { parseDateText } from './date-time';

/** Minimal DOM shapes used here (the package builds without the DOM lib). */
export interface XmlNode {
  nodeType: number;
  nodeName: string;
  localName?: string | null;
  namespaceURI?: string | null;
  nodeValue?: string | null;
  textContent?: string | null;
  childNodes: ArrayLike<XmlNode>;
  attributes?: ArrayLike<XmlNode & { name: string; value: string }>;
  documentElement?: XmlNode;
}

const ELEMENT = 1;
const TEXT = 3;
const CDATA = 4;

/** Parses XML, returning null for anything that is not well-formed (no console output). */
export function parseXml(text: string): XmlNode | null {
  if (text.trim() === '') return null;
  try {
    const document = new DOMParser({
      onError: (level: string, message: string) => {
        if (level !== 'warning') throw new Error(message);
      },
    }).parseFromString(text, 'text/xml') as unknown as XmlNode;
    return document.documentElement ? document : null;
  } catch {
    return null;
  }
}

let lastText: string | undefined;
let lastDocument: XmlNode | null = null;

/** parseXml with a one-entry cache: many stubs look at the same request body one after another. */
export function parseXmlCached(text: string): XmlNode | null {
  if (text === lastText) return lastDocument;
  lastDocument = parseXml(text);
  lastText = text;
  return lastDocument;
}

export function serializeXml(node: XmlNode): string {
  return new XMLSerializer().serializeToString(node as never);
}

export interface XmlEqualityOptions {
  /** `^\s*<open>xmlunit\.<name>(\((args)\))?<close>\s*$` when placeholders are enabled. */
  placeholder: RegExp | null;
  ignoreOrderOfSameNode: boolean;
  exemptedComparisons: ReadonlySet<string>;
}

interface Tally {
  diffs: number;
  nodes: number;
}

/** Semantic XML comparison (whitespace between elements, attribute order and prefixes ignored). */
export function measureXmlDistance(expected: XmlNode, actual: XmlNode, options: XmlEqualityOptions): number {
  const tally: Tally = { diffs: 0, nodes: 0 };
  compareElements(expected.documentElement ?? expected, actual.documentElement ?? actual, options, tally);
  if (tally.diffs === 0) return 0;
  return Math.min(1, Math.max(tally.diffs / Math.max(tally.nodes, 1), 0.01));
}

function isIgnorePlaceholder(value: string, options: XmlEqualityOptions): boolean {
  const match = options.placeholder?.exec(value);
  return match?.[1] === 'ignore';
}

/** XMLUnit placeholders: ignore, isNumber, matchesRegex(re), isDateTime. Undefined when `expected` is none. */
function matchPlaceholder(expected: string, actual: string, options: XmlEqualityOptions): boolean | undefined {
  const match = options.placeholder?.exec(expected);
  if (!match) return undefined;
  switch (match[1]) {
    case 'ignore': return true;
    case 'isNumber': return actual.trim() !== '' && !Number.isNaN(Number(actual.trim()));
    case 'isDateTime': return parseDateText(actual) !== null;
    case 'matchesRegex': {
      const check = compileUserRegex(match[2] ?? '');
      return check.ok && check.regex.test(actual.trim());
    }
    default: return undefined;
  }
}

function valuesMatch(expected: string, actual: string, options: XmlEqualityOptions): boolean {
  return matchPlaceholder(expected, actual, options) ?? expected === actual;
}

function childElements(node: XmlNode): XmlNode[] {
  const out: XmlNode[] = [];
  for (let i = 0; i < node.childNodes.length; i++) if (node.childNodes[i].nodeType === ELEMENT) out.push(node.childNodes[i]);
  return out;
}

function ownText(node: XmlNode): string {
  let text = '';
  for (let i = 0; i < node.childNodes.length; i++) {
    const child = node.childNodes[i];
    if (child.nodeType === TEXT || child.nodeType === CDATA) text += child.nodeValue ?? '';
  }
  return text.trim();
}

function countElements(node: XmlNode): number {
  return childElements(node).reduce((sum, child) => sum + countElements(child), 1);
}

function attributesOf(node: XmlNode): Map<string, string> {
  const map = new Map<string, string>();
  const attributes = node.attributes;
  if (!attributes) return map;
  for (let i = 0; i < attributes.length; i++) {
    const attribute = attributes[i];
    if (attribute.name === 'xmlns' || attribute.name.startsWith('xmlns:')) continue;
    map.set(`${attribute.namespaceURI ?? ''}|${attribute.localName ?? attribute.name}`, attribute.value);
  }
  return map;
}

function compareElements(expected: XmlNode, actual: XmlNode, options: XmlEqualityOptions, tally: Tally): void {
  tally.nodes++;
  if ((expected.localName ?? expected.nodeName) !== (actual.localName ?? actual.nodeName)) {
    tally.diffs += countElements(expected);
    return;
  }
  if (!options.exemptedComparisons.has('NAMESPACE_URI') && (expected.namespaceURI ?? null) !== (actual.namespaceURI ?? null)) tally.diffs++;
  const expectedAttributes = attributesOf(expected);
  const actualAttributes = attributesOf(actual);
  for (const [name, value] of expectedAttributes) {
    tally.nodes++;
    const actualValue = actualAttributes.get(name);
    if (actualValue === undefined || !valuesMatch(value, actualValue, options)) tally.diffs++;
  }
  if (!options.exemptedComparisons.has('ELEMENT_NUM_ATTRIBUTES')) {
    for (const name of actualAttributes.keys()) if (!expectedAttributes.has(name)) tally.diffs++;
  }
  const expectedText = ownText(expected);
  if (!isIgnorePlaceholder(expectedText, options)) {
    tally.nodes++;
    if (!valuesMatch(expectedText, ownText(actual), options)) tally.diffs++;
  }
  const expectedChildren = childElements(expected);
  const actualChildren = childElements(actual);
  if (isIgnorePlaceholder(expectedText, options) && expectedChildren.length === 0) return;
  if (actualChildren.length > expectedChildren.length) tally.diffs += actualChildren.length - expectedChildren.length;
  if (!options.ignoreOrderOfSameNode) {
    // WireMock sorts both child lists by local name (a stable sort) before XMLUnit pairs them by name, and does
    // not count CHILD_NODELIST_SEQUENCE: siblings of different names may come in any order, siblings of one
    // name are paired in document order.
    const actualByName = new Map<string, XmlNode[]>();
    for (const child of actualChildren) {
      const name = child.localName ?? child.nodeName;
      const list = actualByName.get(name);
      if (list) list.push(child);
      else actualByName.set(name, [child]);
    }
    for (const child of expectedChildren) {
      const partner = actualByName.get(child.localName ?? child.nodeName)?.shift();
      if (partner) compareElements(child, partner, options, tally);
      else tally.diffs += countElements(child);
    }
    return;
  }
  if (expectedChildren.length * actualChildren.length > 250_000) {
    // Too many pairs to search: compare in document order instead.
    expectedChildren.forEach((child, i) => {
      if (i < actualChildren.length) compareElements(child, actualChildren[i], options, tally);
      else tally.diffs += countElements(child);
    });
    return;
  }
  const used = new Uint8Array(actualChildren.length);
  for (const child of expectedChildren) {
    let best = -1;
    let bestTally: Tally | null = null;
    for (let j = 0; j < actualChildren.length; j++) {
      if (used[j]) continue;
      const candidate: Tally = { diffs: 0, nodes: 0 };
      compareElements(child, actualChildren[j], options, candidate);
      if (bestTally === null || candidate.diffs < bestTally.diffs) {
        best = j;
        bestTally = candidate;
        if (candidate.diffs === 0) break;
      }
    }
    if (bestTally === null) {
      tally.diffs += countElements(child);
      continue;
    }
    used[best] = 1;
    tally.nodes += bestTally.nodes;
    tally.diffs += bestTally.diffs;
  }
}

export interface CompiledXPath {
  evaluate(document: XmlNode): XPathValue;
}

/** What an XPath expression selected: a node list, or a string/number/boolean. */
export type XPathValue = { nodes: XmlNode[] } | { scalar: string | number | boolean };

interface XPathEvaluator {
  evaluate(options: { node: unknown; namespaces?: Record<string, string>; allowAnyNamespaceForNoPrefix?: boolean }): {
    toArray?: () => XmlNode[];
    stringValue(): string;
    numberValue(): number;
    booleanValue(): boolean;
    constructor: { name: string };
  };
}

/** Parses an XPath once; throws on a syntax error. */
export function compileXPath(expression: string, namespaces: Record<string, string> | undefined): CompiledXPath {
  const evaluator = (xpath as unknown as { parse(expression: string): XPathEvaluator }).parse(expression);
  // Without declared namespaces WireMock reads the document namespace-unaware, so `/a/b` finds elements that sit
  // in a default namespace (`<a xmlns="urn:x">`); with them, an unprefixed name means no namespace.
  const allowAnyNamespaceForNoPrefix = !namespaces || Object.keys(namespaces).length === 0;
  return {
    evaluate(document: XmlNode): XPathValue {
      const result = evaluator.evaluate({ node: document, namespaces, allowAnyNamespaceForNoPrefix });
      if (typeof result.toArray === 'function') return { nodes: result.toArray() };
      const kind = result.constructor.name;
      if (kind === 'XNumber') return { scalar: result.numberValue() };
      if (kind === 'XBoolean') return { scalar: result.booleanValue() };
      return { scalar: result.stringValue() };
    },
  };
}

/** The text a sub-matcher sees for a selected node: element -> its text content, attribute/text -> value. */
export function textOfNode(node: XmlNode): string {
  if (node.nodeType === ELEMENT) return node.textContent ?? '';
  return node.nodeValue ?? node.textContent ?? '';
}

export function isElementNode(node: XmlNode): boolean {
  return node.nodeType === ELEMENT;
}

function escapeXml(text: string, attribute: boolean): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return attribute ? escaped.replace(/"/g, '&quot;') : escaped;
}

/**
 * An element pretty-printed as WireMock prints XML (2 spaces, a text-only element on one line, `<e/>` when
 * empty); `compact` without whitespace between elements. The formatXml helper, and the text an XPath sub-matcher
 * sees of an element (with Java's trailing newline, see compile-xml-pattern).
 */
export function formatPrettyXml(node: XmlNode, depth: number, compact: boolean): string {
  const indent = compact ? '' : '  '.repeat(depth);
  const newline = compact ? '' : '\n';
  const attributes = Array.from(node.attributes ?? []).map((attribute) => ` ${attribute.name}="${escapeXml(attribute.value, true)}"`).join('');
  const children = Array.from(node.childNodes);
  const elements = children.filter((child) => child.nodeType === 1);
  const text = children.filter((child) => child.nodeType === 3 || child.nodeType === 4).map((child) => child.nodeValue ?? '').join('').trim();
  if (elements.length === 0) {
    return text === '' ? `${indent}<${node.nodeName}${attributes}/>` : `${indent}<${node.nodeName}${attributes}>${escapeXml(text, false)}</${node.nodeName}>`;
  }
  const inner = elements.map((child) => formatPrettyXml(child, depth + 1, compact)).join(newline);
  return `${indent}<${node.nodeName}${attributes}>${newline}${inner}${newline}${indent}</${node.nodeName}>`;
}
