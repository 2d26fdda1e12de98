import { compileUserRegex } from './compile-user-regex';

describe('compileUserRegex', () => {
  it.each([
    '^/(a+)+$', '(a*)*', '(a|a)*', '(\\w+\\s?)*', '(.*,)*', '(\\d|\\w)+', '(x+x+)+y', '(a|aa)+$', '([a-z]+)*$',
  ])('rejects the catastrophic pattern %s', (source) => {
    const result = compileUserRegex(source);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(JSON.stringify(source));
  });

  it.each([
    '/api/v\\d+/users', '/foo(/[a-z]+)*', '([^/]+/)*x', '.*foo.*', '[a-z]+', '(foo|far)+', '/users/[0-9]+(\\?.*)?', '(?<id>\\d+)', '(?<=a)b', '/[a-f0-9-]{36}',
  ])('accepts the safe pattern %s', (source) => {
    expect(compileUserRegex(source).ok).toBe(true);
  });

  it('anchors the whole value like Java String.matches', () => {
    const result = compileUserRegex('b');
    expect(result.ok && result.regex.test('abc')).toBe(false);
    expect(result.ok && result.regex.test('b')).toBe(true);
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
