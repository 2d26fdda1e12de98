import type { NearMiss } from './find-near-misses';
import type { MatchableRequest } from './matchable-request';
import type { DiffLine } from './match-request-pattern';

const LEFT_WIDTH = 59;
const RIGHT_WIDTH = 52;
const RULE = '-'.repeat(119);
const SEPARATOR = `${' '.repeat(LEFT_WIDTH)}|`;

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

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Pairs expected and actual lines of a multi-line value; the marker goes on the first line. */
function multiLineRows(expected: string, actual: string, marker: string | undefined): Row[] {
  const left = expected.split(/\r?\n/);
  const right = actual.split(/\r?\n/);
  const rows: Row[] = [];
  for (let i = 0; i < Math.max(left.length, right.length); i++) rows.push({ left: left[i] ?? '', right: right[i] ?? '', marker: i === 0 ? marker : undefined });
  return rows;
}

function kindOf(diff: DiffLine): { kind: string; name: string } {
  const colon = diff.field.indexOf(': ');
  return colon < 0 ? { kind: diff.field, name: '' } : { kind: diff.field.slice(0, colon), name: diff.field.slice(colon + 2) };
}

function namedRow(diff: DiffLine, kind: string, name: string): Row {
  const operatorForm = diff.expected.startsWith('[');
  const marker = diff.matched ? undefined : `${kind} does not match`;
  switch (kind) {
    case 'Header':
      return { left: operatorForm ? `${name} ${diff.expected}` : `${name}: ${diff.expected}`, right: `${name}: ${diff.actual}`, marker };
    default:
      return { left: `${kind}: ${name} ${operatorForm ? diff.expected : `= ${diff.expected}`}`, right: `${name}: ${diff.actual}`, marker };
  }
}

/**
 * WireMock's "Request was not matched" report: the closest stub on the left, the request on the right,
 * blocks for method/URL, headers, query, cookies, form, body, each differing line marked
 * `<<<<< X does not match`.
 */
export function formatNotMatchedReport(request: MatchableRequest, nearMisses: readonly NearMiss[]): string {
  const out: string[] = ['', `${' '.repeat(47)}Request was not matched`, `${' '.repeat(47)}=======================`, '', RULE, `| ${pad('Closest stub', LEFT_WIDTH - 2)}| ${pad('Request', LEFT_WIDTH - 2)}|`, RULE, SEPARATOR];
  const closest = nearMisses[0];
  if (!closest) {
    out.push(renderRow({ left: '(no stubs)', right: request.method }), renderRow({ left: '', right: request.url }), SEPARATOR, RULE, '');
    return out.join('\n');
  }
  if (closest.stubMapping.name) {
    for (const line of wrap(closest.stubMapping.name, LEFT_WIDTH - 1)) out.push(renderRow({ left: line, right: '' }));
    out.push(SEPARATOR);
  }
  const blocks = new Map<string, Row[]>();
  const add = (block: string, rows: Row[]) => blocks.set(block, [...(blocks.get(block) ?? []), ...rows]);
  for (const diff of closest.matchResult.diffs) {
    const { kind, name } = kindOf(diff);
    const marker = diff.matched ? undefined : `${kind === 'URL' ? 'URL' : kind} does not match`;
    switch (kind) {
      case 'HTTP method':
        add('request-line', [{ left: diff.expected, right: diff.actual, marker }]);
        break;
      case 'URL':
        add('request-line', [{ left: diff.expected, right: request.url, marker: marker && marker + regexHint(diff.expected) }]);
        break;
      case 'Scheme': case 'Host': case 'Port':
        add('request-line', [{ left: `${kind}: ${diff.expected}`, right: `${kind}: ${diff.actual}`, marker }]);
        break;
      case 'Body': {
        // Documents are shown as such (WireMock prints the expected JSON/XML, not the operator).
        const document = /^\[(equalToJson|equalToXml)\] /.exec(diff.expected);
        const expected = document ? diff.expected.slice(document[0].length) : diff.expected;
        add('body', multiLineRows(expected, document?.[1] === 'equalToJson' ? prettyJson(diff.actual) : diff.actual, marker));
        break;
      }
      case 'Basic auth':
        add('Header', [{ left: `Basic auth: ${diff.expected}`, right: `Basic auth: ${diff.actual}`, marker }]);
        break;
      case 'Multipart':
        add('multipart', [{ left: `Multipart: ${diff.expected}`, right: `Parts: ${diff.actual}`, marker }]);
        break;
      default:
        add(kind, [namedRow(diff, kind, name)]);
    }
  }
  for (const rows of blocks.values()) {
    for (const row of rows) out.push(renderRow(row));
    out.push(SEPARATOR);
  }
  out.push(RULE, '');
  return out.join('\n');
}

/** WireMock's hints for the usual urlPattern mistakes. */
function regexHint(expected: string): string {
  if (!expected.startsWith('[regex] ')) return '';
  const regex = expected.slice('[regex] '.length);
  const hints: string[] = [];
  if (/(^|[^\\])\?/.test(regex) && !/[)\]*+?]\?/.test(regex)) hints.push('When using a regex, "?" should be "\\\\?"');
  if (!regex.startsWith('/') && !regex.startsWith('^/') && !regex.startsWith('.')) hints.push('URLs must start with a /');
  return hints.length ? `. ${hints.join('. ')}` : '';
}
