import { compileUserRegex, findLiteralPrefix } from './compile-user-regex';

describe('compileUserRegex', () => {
  it.each([
    '^/(a+)+$', '(a*)*', '(a|a)*', '(\\w+\\s?)*', '(.*,)*', '(\\d|\\w)+', '(x+x+)+y', '(a|aa)+$', '([a-z]+)*$', '(.*a){10}', '(a+){2,5}',
  ])('rejects the catastrophic pattern %s', (source) => {
    const result = compileUserRegex(source);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(JSON.stringify(source));
  });

  it.each([
    '/api/v\\d+/users', '/foo(/[a-z]+)*', '(\\d{1,3}\\.){3}\\d{1,3}', '(\\w+\\s){2}', '(ab?){3}', '([^/]+/)*x', '.*foo.*', '[a-z]+', '(foo|far)+', '/users/[0-9]+(\\?.*)?', '(?<id>\\d+)', '(?<=a)b', '/[a-f0-9-]{36}',
  ])('accepts the safe pattern %s', (source) => {
    expect(compileUserRegex(source).ok).toBe(true);
  });

  it('anchors the whole value like Java String.matches', () => {
    const result = compileUserRegex('b');
    expect(result.ok && result.regex.test('abc')).toBe(false);
    expect(result.ok && result.regex.test('b')).toBe(true);
  });

  it('lets . match line breaks with dotAll (WireMock\'s request matchers: Java DOTALL), also after a leading (?i)', () => {
    const dotAll = compileUserRegex('.*foo.*', { dotAll: true });
    expect(dotAll.ok && dotAll.regex.test('a\nfoo\nb')).toBe(true);
    const caseless = compileUserRegex('(?i).*FOO.*', { dotAll: true });
    expect(caseless.ok && caseless.regex.test('a\r\nfoo\r\nb')).toBe(true);
    // without it (template helpers, json-unit), . stops at a line break, as in Java without DOTALL
    const plain = compileUserRegex('.*foo.*');
    expect(plain.ok && plain.regex.test('a\nfoo\nb')).toBe(false);
  });

  it('analyses . as the regex runs it: with line breaks, a loop over .* and a line break is catastrophic', () => {
    expect(compileUserRegex('(.*\n)*')).toMatchObject({ ok: true });
    expect(compileUserRegex('(.*\n)*', { dotAll: true })).toMatchObject({ ok: false, message: expect.stringContaining('backtrack catastrophically') });
    expect(compileUserRegex('(?s)(.*\n)*')).toMatchObject({ ok: false });
  });

  it('turns a leading (?i) into the i flag', () => {
    const result = compileUserRegex('(?i)/Hello');
    expect(result.ok && result.regex.test('/HELLO')).toBe(true);
  });

  it('reports a syntax error with the pattern', () => {
    const result = compileUserRegex('a(');
    expect(result).toEqual({ ok: false, message: expect.stringMatching(/invalid regex "a\(".*/) });
  });

  it('keeps a rejected pattern from hanging: the analysed pattern is never run', () => {
    const result = compileUserRegex('^/(a+)+$');
    expect(result.ok).toBe(false);
  });
});

describe('findLiteralPrefix', () => {
  it.each<[string, string]>([
    ['/api/v1/users/[0-9]+', '/api/v1/users/'],
    ['^/a\\/b\\.c/x*', '/a/b.c/'],
    ['/ab?c', '/a'],
    ['/users/\\d+', '/users/'],
    ['/a|/b', ''],
    ['(?i)/x', ''],
    ['.*', ''],
    ['/lit\\?q=1', '/lit?q=1'],
  ])('%s -> %s', (source, prefix) => {
    expect(findLiteralPrefix(source)).toBe(prefix);
  });
});
