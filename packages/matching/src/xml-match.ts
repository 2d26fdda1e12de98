import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import * as xpath from 'xpath';

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
  enablePlaceholders: boolean;
  ignoreOrderOfSameNode: boolean;
  exemptedComparisons: ReadonlySet<string>;
}

interface Tally {
  diffs: number;
  nodes: number;
}

/** Semantic XML comparison (whitespace between elements, attribute order and prefixes ignored). */
export function xmlDistance(expected: XmlNode, actual: XmlNode, options: XmlEqualityOptions): number {
  const tally: Tally = { diffs: 0, nodes: 0 };
  compareElements(expected.documentElement ?? expected, actual.documentElement ?? actual, options, tally);
  if (tally.diffs === 0) return 0;
  return Math.min(1, Math.max(tally.diffs / Math.max(tally.nodes, 1), 0.01));
}

function isIgnorePlaceholder(value: string, options: XmlEqualityOptions): boolean {
  return options.enablePlaceholders && value.trim() === '${xmlunit.ignore}';
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
    if (actualValue === undefined || (actualValue !== value && !isIgnorePlaceholder(value, options))) tally.diffs++;
  }
  if (!options.exemptedComparisons.has('ELEMENT_NUM_ATTRIBUTES')) {
    for (const name of actualAttributes.keys()) if (!expectedAttributes.has(name)) tally.diffs++;
  }
  const expectedText = ownText(expected);
  if (!isIgnorePlaceholder(expectedText, options)) {
    tally.nodes++;
    if (expectedText !== ownText(actual)) tally.diffs++;
  }
  const expectedChildren = childElements(expected);
  const actualChildren = childElements(actual);
  if (isIgnorePlaceholder(expectedText, options) && expectedChildren.length === 0) return;
  if (actualChildren.length > expectedChildren.length) tally.diffs += actualChildren.length - expectedChildren.length;
  if (!options.ignoreOrderOfSameNode) {
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
  evaluate(options: { node: unknown; namespaces?: Record<string, string> }): {
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
  return {
    evaluate(document: XmlNode): XPathValue {
      const result = evaluator.evaluate({ node: document, namespaces });
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
