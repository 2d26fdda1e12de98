import { formatJavaDate, parseJavaDate } from './java-date-format';

const date = new Date(Date.UTC(2021, 5, 4, 15, 7, 9, 42));

describe('formatJavaDate', () => {
  it.each<[string, string | undefined, string]>([
    ["yyyy-MM-dd'T'HH:mm:ss.SSSXXX", undefined, '2021-06-04T15:07:09.042Z'],
    ['yyyy-MM-dd', undefined, '2021-06-04'],
    ['yy/M/d', undefined, '21/6/4'],
    ['dd MMM yyyy', undefined, '04 Jun 2021'],
    ['EEEE, MMMM d', undefined, 'Friday, June 4'],
    ['EEE', undefined, 'Fri'],
    ['hh:mm a', undefined, '03:07 PM'],
    ['HH:mm Z', 'Europe/Paris', '17:07 +0200'],
    ['HH:mm XXX', 'America/New_York', '11:07 -04:00'],
    ['HH:mm XXX', '+05:30', '20:37 +05:30'],
    ["'quoted' yyyy ''", undefined, 'quoted 2021 \''],
    ['D', undefined, '155'],
  ])('%s in %s', (pattern, zone, expected) => {
    expect(formatJavaDate(date, pattern, zone)).toBe(expected);
  });

  it('names an unsupported letter', () => {
    expect(() => formatJavaDate(date, 'yyyy-QQ')).toThrow(/unsupported letter 'Q'/);
  });
});

describe('parseJavaDate', () => {
  it.each<[string, string, string | null]>([
    ['14/06/2021', 'dd/MM/yyyy', '2021-06-14T00:00:00.000Z'],
    ['2021-06-14 10:11:12', 'yyyy-MM-dd HH:mm:ss', '2021-06-14T10:11:12.000Z'],
    ['2021-06-14T10:11:12+02:00', "yyyy-MM-dd'T'HH:mm:ssXXX", '2021-06-14T08:11:12.000Z'],
    ['14 Jun 2021 03:00 PM', 'dd MMM yyyy hh:mm a', '2021-06-14T15:00:00.000Z'],
    ['not a date', 'yyyy-MM-dd', null],
  ])('%s with %s', (text, pattern, expected) => {
    expect(parseJavaDate(text, pattern)?.toISOString() ?? null).toBe(expected);
  });
});
