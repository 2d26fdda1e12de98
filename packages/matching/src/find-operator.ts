import { joinPath, PatternError } from './pattern-error';

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

/** Finds the one operator key of a pattern object and checks that the other keys are its modifiers. */
export function findOperator(spec: Record<string, unknown>, path: string, extraAllowed: readonly string[] = []): string {
  const operators = Object.keys(spec).filter((key) => Object.hasOwn(OPERATORS, key));
  if (operators.length === 0) {
    const unknown = Object.keys(spec).find((key) => !extraAllowed.includes(key));
    throw new PatternError(path, unknown ? `unknown match operator '${unknown}' (expected one of ${OPERATOR_NAMES.join(', ')})` : 'a match operator is required');
  }
  if (operators.length > 1) throw new PatternError(path, `only one match operator allowed, found ${operators.join(', ')}`);
  const operator = operators[0];
  for (const key of Object.keys(spec)) {
    if (key === operator || extraAllowed.includes(key)) continue;
    if (!OPERATORS[operator].includes(key)) throw new PatternError(joinPath(path, key), `'${key}' is not a valid modifier of ${operator}`);
  }
  return operator;
}

