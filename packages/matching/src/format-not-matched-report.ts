import type { NearMiss } from './find-near-misses';
import { formatJacksonJson } from './format-jackson-json';
import type { MatchableRequest } from './matchable-request';
import type { DiffLine } from './match-request-pattern';
import { exceedsJsonNestingDepth } from './json-nesting-depth';

const LEFT_WIDTH = 59;
const RIGHT_WIDTH = 52;
const RULE = '-'.repeat(119);
const SEPARATOR = `${' '.repeat(LEFT_WIDTH)}|`;
const ABSENT = '(absent)';

interface Row {
  left: string;
  right: string;
  marker?: string;
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

function renderRow(row: Row): string {
  const left = pad(row.left, LEFT_WIDTH);
  if (!row.marker) return `${left}| ${row.right}`.replace(/\s+$/, '');
  return `${left}| ${pad(row.right, RIGHT_WIDTH)}<<<<< ${row.marker}`;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

function formatPrettyJson(text: string): string {
  if (exceedsJsonNestingDepth(text)) return text;
  try {
    return formatJacksonJson(JSON.parse(text));
  } catch {
    return text;
  }
}

/** Pairs expected and actual lines of multi-line values; the marker goes on the first line. */
function pairLines(left: string[], right: string[], marker: string | undefined): Row[] {
  const rows: Row[] = [];
  for (let i = 0; i < Math.max(left.length, right.length); i++) rows.push({ left: left[i] ?? '', right: right[i] ?? '', marker: i === 0 ? marker : undefined });
  return rows;
}

function lines(text: string): string[] {
  return text.split(/\r?\n/);
}

function splitField(diff: DiffLine): { kind: string; name: string } {
  const colon = diff.field.indexOf(': ');
  return colon < 0 ? { kind: diff.field, name: '' } : { kind: diff.field.slice(0, colon), name: diff.field.slice(colon + 2) };
}

/** `[contains] x` -> ['contains', 'x']; plain `x` (equalTo) -> [null, 'x']. */
function splitOperator(expected: string): [string | null, string] {
  const match = /^\[([A-Za-z]+)\] ?([\s\S]*)$/.exec(expected);
  return match ? [match[1], match[2]] : [null, expected];
}

const MARKERS: Record<string, string> = {
  'HTTP method': 'HTTP method does not match',
  URL: 'URL does not match',
  Header: 'Header does not match',
  Query: 'Query does not match',
  Cookie: 'Cookie does not match',
  Form: 'Form data does not match',
  'Path parameter': 'Path parameter does not match',
  Body: 'Body does not match',
  Multipart: 'Multipart does not match',
};

function buildRows(diff: DiffLine, request: MatchableRequest): Row[] {
  const { kind, name } = splitField(diff);
  const absent = diff.actual === ABSENT;
  const marker = diff.matched ? undefined : absent && ['Header', 'Query', 'Cookie', 'Form'].includes(kind) ? `${kind === 'Form' ? 'Form data' : kind} is not present` : (MARKERS[kind] ?? `${kind} does not match`);
  const [operator, value] = splitOperator(diff.expected);
  const actual = absent ? '' : diff.actual;
  switch (kind) {
    case 'HTTP method':
      return [{ left: diff.expected, right: diff.actual, marker }];
    case 'URL':
      return [{ left: diff.expected, right: request.url, marker: marker && marker + describeRegexHint(diff.expected) }];
    case 'Header':
      return [{ left: operator ? `${name} [${operator}] : ${value}` : `${name}: ${value}`, right: absent ? '' : `${name}: ${actual}`, marker }];
    case 'Cookie':
      return [{ left: operator ? `Cookie: ${name} [${operator}] ${value}` : `Cookie: ${name}=${value}`, right: actual, marker }];
    case 'Query': case 'Form': case 'Path parameter':
      return [{ left: operator ? `${kind}: ${name} [${operator}] ${value}` : `${kind}: ${name} = ${value}`, right: absent ? '' : `${name}: ${actual}`, marker }];
    case 'Body':
      return buildBodyRows(operator, value, diff.actual, marker);
    default:
      return [{ left: `${diff.field}: ${diff.expected}`, right: diff.actual, marker }];
  }
}

function buildBodyRows(operator: string | null, value: string, actual: string, marker: string | undefined): Row[] {
  switch (operator) {
    case null:
      return pairLines(lines(value), lines(actual), marker);
    case 'equalToJson':
    case 'matchesJsonSchema':
      return pairLines([`[${operator}]`, ...lines(value)], ['', ...lines(formatPrettyJson(actual))], marker);
    case 'matchesJsonPath':
    case 'matchesXPath':
      return pairLines(lines(value), lines(actual), marker);
    default:
      return pairLines([`[${operator}]`, ...lines(value)], ['', ...lines(actual)], marker);
  }
}

/** WireMock's hints for the usual urlPattern mistakes. */
function describeRegexHint(expected: string): string {
  if (!expected.startsWith('[regex] ')) return '';
  const regex = expected.slice('[regex] '.length);
  const hints: string[] = [];
  if (/(^|[^\\])\?/.test(regex) && !/[)\]*+?]\?/.test(regex)) hints.push('When using a regex, "?" should be "\\\\?"');
  if (!regex.startsWith('/') && !regex.startsWith('^/') && !regex.startsWith('.')) hints.push('URLs must start with a /');
  return hints.length ? `. ${hints.join('. ')}` : '';
}

const BLOCK_OF: Record<string, string> = { 'HTTP method': 'request-line', URL: 'request-line', Scheme: 'request-line', Host: 'request-line', Port: 'request-line', 'Basic auth': 'Header' };

/**
 * WireMock's "Request was not matched" report: the closest stub on the left, the request on the right,
 * one block per kind of field (request line, headers, path parameters, query, cookies, form, body),
 * each differing line marked `<<<<< X does not match` / `X is not present`.
 */
export interface NotMatchedReportOptions {
  /** The current state of a scenario, so a stub waiting for another state shows why (WireMock's Scenario line). */
  scenarioStateOf?: (scenarioName: string) => string | undefined;
}

export function formatNotMatchedReport(request: MatchableRequest, nearMisses: readonly NearMiss[], options: NotMatchedReportOptions = {}): string {
  const out: string[] = ['', `${' '.repeat(47)}Request was not matched`, `${' '.repeat(47)}=======================`, '', RULE, `| ${pad('Closest stub', LEFT_WIDTH - 2)}| ${pad('Request', LEFT_WIDTH - 2)}|`, RULE, SEPARATOR];
  const closest = nearMisses[0];
  if (!closest) {
    out.push(renderRow({ left: '(no stubs)', right: request.method }), renderRow({ left: '', right: request.url }), SEPARATOR, SEPARATOR, RULE, '');
    return out.join('\n');
  }
  if (closest.stubMapping.name) {
    for (const line of wrap(closest.stubMapping.name, LEFT_WIDTH - 1)) out.push(renderRow({ left: line, right: '' }));
    out.push(SEPARATOR);
  }
  const blocks = new Map<string, Row[]>();
  for (const diff of closest.matchResult.diffs) {
    const { kind } = splitField(diff);
    const block = BLOCK_OF[kind] ?? kind;
    blocks.set(block, [...(blocks.get(block) ?? []), ...buildRows(diff, request)]);
  }
  const { scenarioName, requiredScenarioState } = closest.stubMapping;
  if (scenarioName && requiredScenarioState && options.scenarioStateOf) {
    const actual = options.scenarioStateOf(scenarioName) ?? 'Started';
    const describe = (state: string) => `[Scenario '${scenarioName}' state: ${state}]`;
    blocks.set('Scenario', [{ left: describe(requiredScenarioState), right: describe(actual), marker: actual === requiredScenarioState ? undefined : 'Scenario does not match' }]);
  }
  for (const rows of blocks.values()) {
    for (const row of rows) out.push(renderRow(row));
    out.push(SEPARATOR);
  }
  if (!blocks.has('Body') && !blocks.has('Scenario')) out.push(SEPARATOR);
  out.push(RULE, '');
  return out.join('\n');
}
