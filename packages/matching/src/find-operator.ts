import { PatternError } from './pattern-error';

const DATE_MODIFIERS = ['actualFormat', 'expectedOffset', 'expectedOffsetUnit', 'truncateExpected', 'truncateActual', 'applyTruncationLast'];

/** Operator keys and the modifier keys each one accepts. */
const OPERATORS: Record<string, readonly string[]> = {
  equalTo: ['caseInsensitive'],
  binaryEqualTo: [],
  contains: [],
  doesNotContain: [],
  matches: [],
  doesNotMatch: [],
  absent: [],
  equalToJson: ['ignoreArrayOrder', 'ignoreExtraElements'],
  matchesJsonPath: [],
  matchesJsonSchema: ['schemaVersion'],
  equalToXml: ['enablePlaceholders', 'placeholderOpeningDelimiterRegex', 'placeholderClosingDelimiterRegex', 'exemptedComparisons', 'ignoreOrderOfSameNode', 'namespaceAwareness'],
  matchesXPath: ['xPathNamespaces'],
  before: DATE_MODIFIERS,
  after: DATE_MODIFIERS,
  equalToDateTime: DATE_MODIFIERS,
  and: [],
  or: [],
  not: [],
};

export const OPERATOR_NAMES: readonly string[] = Object.keys(OPERATORS);

/** Finds the one operator key of a pattern object (several are an error: WireMock would silently pick one). */
export function findOperator(spec: Record<string, unknown>, path: string, extraAllowed: readonly string[] = []): string {
  const operators = Object.keys(spec).filter((key) => Object.hasOwn(OPERATORS, key));
  if (operators.length === 0) {
    const unknown = Object.keys(spec).find((key) => !extraAllowed.includes(key));
    if (!unknown) throw new PatternError(path, 'a match operator is required');
    // WireMock's wording, plus the operators we know.
    const shown = JSON.stringify(spec);
    throw new PatternError(path, `${shown.length > 200 ? `${shown.slice(0, 200)}…` : shown} is not a valid match operation: unknown match operator '${unknown}' (expected one of ${OPERATOR_NAMES.join(', ')})`);
  }
  if (operators.length > 1) throw new PatternError(path, `only one match operator allowed, found ${operators.join(', ')}`);
  const operator = operators[0];
  // Other keys are ignored, as WireMock ignores them (a known modifier of another operator, or noise).
  return operator;
}

