import { compileContentPattern } from './compile-content-pattern';

function isMatch(spec: Record<string, unknown>, actual: string | undefined): boolean {
  const d = compileContentPattern(spec, 'p').distance(actual);
  expect(d >= 0 && d <= 1).toBe(true);
  return d === 0;
}

describe('date matchers', () => {
  it.each<[string, Record<string, unknown>, string | undefined, boolean]>([
    ['before a fixed date', { before: '2021-06-14T12:00:00Z' }, '2021-06-14T11:59:59Z', true],
    ['not before a later date', { before: '2021-06-14T12:00:00Z' }, '2021-06-14T12:00:01Z', false],
    ['after a fixed date', { after: '2021-06-14T12:00:00Z' }, '2022-01-01T00:00:00Z', true],
    ['after with an offset in the actual value', { after: '2021-06-14T12:00:00Z' }, '2021-06-14T13:30:00+01:00', true],
    ['equalToDateTime across zones', { equalToDateTime: '2021-06-14T12:00:00Z' }, '2021-06-14T14:00:00+02:00', true],
    ['equalToDateTime with a local date-time (UTC)', { equalToDateTime: '2021-06-14T12:00:00Z' }, '2021-06-14T12:00:00', true],
    ['equalToDateTime with an RFC 1123 value', { equalToDateTime: '2021-06-14T12:00:00Z' }, 'Mon, 14 Jun 2021 12:00:00 GMT', true],
    ['before now for a past date', { before: 'now' }, '2001-01-01T00:00:00Z', true],
    ['after now +3 days fails for today', { after: 'now +3 days' }, new Date().toISOString(), false],
    ['after now -1 days for today', { after: 'now -1 days' }, new Date().toISOString(), true],
    ['expectedOffset moves the expected date', { before: 'now', expectedOffset: -10, expectedOffsetUnit: 'years' }, new Date().toISOString(), false],
    ['actualFormat reads custom dates', { equalToDateTime: '2021-06-14T00:00:00Z', actualFormat: 'dd/MM/yyyy' }, '14/06/2021', true],
    ['actualFormat epoch', { equalToDateTime: '2021-06-14T00:00:00Z', actualFormat: 'epoch' }, String(Date.UTC(2021, 5, 14)), true],
    ['actualFormat unix', { equalToDateTime: '2021-06-14T00:00:00Z', actualFormat: 'unix' }, String(Date.UTC(2021, 5, 14) / 1000), true],
    ['truncateActual', { equalToDateTime: '2021-06-01T00:00:00Z', truncateActual: 'first day of month' }, '2021-06-14T10:11:12Z', true],
    ['truncateExpected', { equalToDateTime: '2021-06-14T10:11:12Z', truncateExpected: 'first hour of day' }, '2021-06-14T00:00:00Z', true],
    ['an unparseable actual value', { before: 'now' }, 'yesterday', false],
    ['an absent value', { before: 'now' }, undefined, false],
  ])('%s', (_name, spec, actual, expected) => {
    expect(isMatch(spec, actual)).toBe(expected);
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['an unreadable expected date', { before: 'tomorrow' }, /must be 'now'/],
    ['an unknown truncation', { before: 'now', truncateExpected: 'first week' }, /unknown truncation/],
    ['an unknown offset unit', { before: 'now', expectedOffset: 1, expectedOffsetUnit: 'fortnights' }, /expectedOffsetUnit/],
    ['a fractional offset', { before: 'now', expectedOffset: 1.5 }, /integer/],
    ['a bad actualFormat', { before: 'now', actualFormat: "yyyy-'MM" }, /unterminated quote/],
  ])('rejects %s', (_name, spec, message) => {
    expect(() => compileContentPattern(spec, 'p')).toThrow(message);
  });
});
