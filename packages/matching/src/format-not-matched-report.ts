import type { MatchableRequest } from './matchable-request';
import type { DiffLine } from './match-request-pattern';
import type { NearMiss } from './find-near-misses';

const COLUMN = 58;
const RULE = '-'.repeat(COLUMN * 2 + 5);

function cell(text: string): string {
  return text.length >= COLUMN ? text : text + ' '.repeat(COLUMN - text.length);
}

function splitLines(text: string): string[] {
  return text.split(/\r?\n/);
}

function describeField(diff: DiffLine): { left: string; right: string; label: string } {
  switch (diff.field) {
    case 'HTTP method': return { left: diff.expected, right: diff.actual, label: 'HTTP method does not match' };
    case 'URL': return { left: diff.expected, right: diff.actual, label: 'URL does not match' };
    case 'Body': return { left: diff.expected, right: diff.actual, label: 'Body does not match' };
    default: {
      const colon = diff.field.indexOf(': ');
      const kind = colon < 0 ? diff.field : diff.field.slice(0, colon);
      const name = colon < 0 ? '' : diff.field.slice(colon + 2);
      const prefix = name ? `${name}` : kind;
      return { left: `${prefix}: ${diff.expected}`, right: `${prefix}: ${diff.actual}`, label: `${kind} does not match` };
    }
  }
}

/**
 * WireMock's "Request was not matched" report: the closest stub on the left, the request on the right,
 * one block per compared field, `<<<<< X does not match` on the lines that differ.
 */
export function formatNotMatchedReport(request: MatchableRequest, nearMisses: readonly NearMiss[]): string {
  const title = 'Request was not matched';
  const indent = ' '.repeat(Math.max(0, Math.floor((RULE.length - title.length) / 2)));
  const out: string[] = ['', `${indent}${title}`, `${indent}${'='.repeat(title.length)}`, '', RULE, `| ${cell('Closest stub')}| ${cell('Request')}|`, RULE, `${cell('')}  |`];
  const closest = nearMisses[0];
  if (!closest) {
    out.push(`${cell('(no stubs)')}  | ${request.method}`, `${cell('')}  | ${request.url}`, `${cell('')}  |`, RULE, '');
    return out.join('\n');
  }
  if (closest.stubMapping.name) out.push(`${cell(closest.stubMapping.name)}  |`, `${cell('')}  |`);
  for (const diff of closest.matchResult.diffs) {
    const { left, right, label } = describeField(diff);
    const leftLines = splitLines(left);
    const rightLines = splitLines(right);
    const rows = Math.max(leftLines.length, rightLines.length);
    for (let i = 0; i < rows; i++) {
      const marker = !diff.matched && i === 0 ? `${' '.repeat(Math.max(1, COLUMN - (rightLines[i] ?? '').length))}<<<<< ${label}` : '';
      out.push(`${cell(leftLines[i] ?? '')}  | ${rightLines[i] ?? ''}${marker}`.replace(/\s+$/, ''));
    }
    out.push(`${cell('')}  |`);
  }
  out.push(RULE, '');
  return out.join('\n');
}
