import { compileContentPattern } from './compile-content-pattern';

describe('equalToXml', () => {
  it.each<[string, Record<string, unknown>, string, boolean]>([
    ['ignores whitespace between elements', { equalToXml: '<a><b>1</b></a>' }, '<a>\n  <b>1</b>\n</a>', true],
    ['ignores attribute order', { equalToXml: '<a x="1" y="2"/>' }, '<a y="2" x="1"/>', true],
    ['notices a different text', { equalToXml: '<a><b>1</b></a>' }, '<a><b>2</b></a>', false],
    ['notices a missing element', { equalToXml: '<a><b/><c/></a>' }, '<a><b/></a>', false],
    ['notices an extra element', { equalToXml: '<a><b/></a>' }, '<a><b/><c/></a>', false],
    ['ignores the order of differently named siblings (as WireMock)', { equalToXml: '<a><b/><c><d>1</d><e/></c></a>' }, '<a><c><e/><d>1</d></c><b/></a>', true],
    ['notices the order of siblings of one name', { equalToXml: '<a><b>1</b><b>2</b></a>' }, '<a><b>2</b><b>1</b></a>', false],
    ['pairs siblings of one name in order among others', { equalToXml: '<a><b>1</b><c/><b>2</b></a>' }, '<a><c/><b>1</b><b>2</b></a>', true],
    ['notices a missing sibling whatever the order', { equalToXml: '<a><b/><c/></a>' }, '<a><c/><c/></a>', false],
    ['ignores the order of siblings of one name with ignoreOrderOfSameNode', { equalToXml: '<a><b>1</b><b>2</b></a>', ignoreOrderOfSameNode: true }, '<a><b>2</b><b>1</b></a>', true],
    ['compares namespaces, not prefixes', { equalToXml: '<x:a xmlns:x="urn:1"/>' }, '<y:a xmlns:y="urn:1"/>', true],
    ['accepts ${xmlunit.ignore} with enablePlaceholders', { equalToXml: '<a><id>${xmlunit.ignore}</id></a>', enablePlaceholders: true }, '<a><id>123</id></a>', true],
    ['treats ${xmlunit.ignore} literally without enablePlaceholders', { equalToXml: '<a><id>${xmlunit.ignore}</id></a>' }, '<a><id>123</id></a>', false],
    ['${xmlunit.isNumber} accepts a number', { equalToXml: '<a><n>${xmlunit.isNumber}</n></a>', enablePlaceholders: true }, '<a><n>12.5</n></a>', true],
    ['${xmlunit.isNumber} rejects text', { equalToXml: '<a><n>${xmlunit.isNumber}</n></a>', enablePlaceholders: true }, '<a><n>x</n></a>', false],
    ['${xmlunit.matchesRegex(...)}', { equalToXml: '<a><id>${xmlunit.matchesRegex([A-Z]+-\\d+)}</id></a>', enablePlaceholders: true }, '<a><id>AB-12</id></a>', true],
    ['${xmlunit.isDateTime}', { equalToXml: '<a d="${xmlunit.isDateTime}"/>', enablePlaceholders: true }, '<a d="2021-06-14T10:00:00Z"/>', true],
    ['custom placeholder delimiters', { equalToXml: '<a><id>[[xmlunit.ignore]]</id></a>', enablePlaceholders: true, placeholderOpeningDelimiterRegex: '\\[\\[', placeholderClosingDelimiterRegex: ']]' }, '<a><id>7</id></a>', true],
    ['misses a body that is not XML', { equalToXml: '<a/>' }, 'not xml', false],
  ])('%s', (_name, spec, actual, exact) => {
    const d = compileContentPattern(spec, 'p').distance(actual);
    expect(d >= 0 && d <= 1).toBe(true);
    expect(d === 0).toBe(exact);
  });

  it('rejects a catastrophic placeholder delimiter', () => {
    expect(() => compileContentPattern({ equalToXml: '<a/>', enablePlaceholders: true, placeholderOpeningDelimiterRegex: '(a+)+' }, 'p')).toThrow(/catastrophically/);
  });

  it('rejects an expected document that is not XML', () => {
    expect(() => compileContentPattern({ equalToXml: '<a>' }, 'p')).toThrow(/not well-formed/);
  });
});

describe('matchesXPath', () => {
  const body = '<order xmlns:s="urn:shop"><id>7</id><item sku="A1">Pen</item><item sku="B2">Ink</item><s:total>12.5</s:total><list xmlns="urn:list"><entry>x</entry></list></order>';
  it.each<[string, Record<string, unknown>, boolean]>([
    ['an existing node', { matchesXPath: '/order/id' }, true],
    ['a missing node', { matchesXPath: '/order/nope' }, false],
    ['a predicate', { matchesXPath: "/order/item[@sku='B2']" }, true],
    ['a boolean expression', { matchesXPath: 'count(/order/item) = 2' }, true],
    ['a false boolean expression', { matchesXPath: 'count(/order/item) = 3' }, false],
    ['equalTo sub-matcher on text', { matchesXPath: { expression: '/order/id/text()', equalTo: '7' } }, true],
    // An element is matched as WireMock prints it (pretty XML, a trailing newline), not as its text: these as
    // WireMock 3.13.2 answered them.
    ['equalTo sub-matcher on an element: not its text', { matchesXPath: { expression: '/order/id', equalTo: '7' } }, false],
    ['equalTo sub-matcher on an element: the element as WireMock prints it', { matchesXPath: { expression: '/order/id', equalTo: '<id>7</id>\n' } }, true],
    ['any selected node may match', { matchesXPath: { expression: '/order/item', equalTo: '<item sku="B2">Ink</item>\n' } }, true],
    ['contains on an element sees its text inside', { matchesXPath: { expression: '/order/item', contains: 'Ink' } }, true],
    ['an element with children, indented by 2', { matchesXPath: { expression: '/order/list', equalTo: '<list xmlns="urn:list">\n  <entry>x</entry>\n</list>\n' } }, true],
    ['contains sub-matcher miss', { matchesXPath: { expression: '/order/item', contains: 'Paper' } }, false],
    ['an attribute with matches', { matchesXPath: { expression: '/order/item/@sku', matches: '[A-Z][0-9]' } }, true],
    ['namespaces', { matchesXPath: '/order/shop:total', xPathNamespaces: { shop: 'urn:shop' } }, true],
    ['an unprefixed name in a default namespace, none declared (as WireMock)', { matchesXPath: '/order/list/entry' }, true],
    ['an unprefixed name is no namespace once namespaces are declared', { matchesXPath: '/order/list/entry', xPathNamespaces: { shop: 'urn:shop' } }, false],
    ['a declared default namespace', { matchesXPath: '/order/l:list/l:entry', xPathNamespaces: { l: 'urn:list' } }, true],
    ['equalToXml sub-matcher', { matchesXPath: { expression: '/order/item[1]', equalToXml: '<item sku="A1">Pen</item>' } }, true],
  ])('%s', (_name, spec, exact) => {
    const d = compileContentPattern(spec, 'p').distance(body);
    expect(d === 0).toBe(exact);
  });

  it('rejects an invalid XPath', () => {
    expect(() => compileContentPattern({ matchesXPath: '/a[' }, 'p')).toThrow(/invalid XPath/);
  });
});
