import { parseProperties } from './parse-properties';

describe('parseProperties', () => {
  it.each([
    ['key=value', 'key', 'value'],
    ['key = value with spaces ', 'key', 'value with spaces '],
    ['key:value', 'key', 'value'],
    ['key value', 'key', 'value'],
    ['  indented.key=1', 'indented.key', '1'],
    ['url=jdbc:postgresql://h:5432/db?user=a&password=b', 'url', 'jdbc:postgresql://h:5432/db?user=a&password=b'],
    ['esc\\=aped=v', 'esc=aped', 'v'],
    ['uni=\\u0041B', 'uni', 'AB'],
    ['empty=', 'empty', ''],
  ])('parses %j', (line, key, value) => {
    expect(parseProperties(line).get(key)).toBe(value);
  });

  it('skips comments and blank lines, joins continuations, and lets later keys win', () => {
    const map = parseProperties('# comment\n! also\n\na=1\nlong=one \\\n    two\na=2\n');
    expect([...map.entries()]).toEqual([
      ['a', '2'],
      ['long', 'one two'],
    ]);
  });
});
