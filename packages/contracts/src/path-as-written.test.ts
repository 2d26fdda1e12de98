import { pathAsWritten } from './path-as-written';

const written = (value: string) => pathAsWritten(value, new URL(value));

describe('pathAsWritten', () => {
  it.each([
    // as written: what any HTTP client would send
    ["http://t.test/a/../b?q=it's", "/a/../b?q=it's"],
    ['http://t.test/a/./b/{id}', '/a/./b/{id}'],
    ['http://t.test/a%2Fb/%7e', '/a%2Fb/%7e'],
    ['HTTP://T.test/Path', '/Path'],
    ['http://t.test?x=1', '/?x=1'],
    ['http://t.test/p#fragment', '/p'],
    ['http://user:pw@t.test:81/a/../p', '/a/../p'],
    ['http:/t.test/a/../b', '/a/../b'],
    ['http:///t.test/a/../b', '/a/../b'], // a parser skips any run of slashes before the host
    ['http://t.test/a\\..\\b', '/a\\..\\b'], // as curl sends it; a WHATWG parser reads each backslash as a slash
    // the normal form: not sendable as written, or the written path would name another host's path
    ['http://t.test', '/'],
    ['http://t.test/a b', '/a%20b'],
    ['http://t.test/café', '/caf%C3%A9'],
    ['http://t.test\\a/../b', '/b'],
    ['http:////user:pw@t.test/x', '/x'],
  ])('%s → %s', (value, path) => {
    expect(written(value)).toBe(path);
  });

  it('never moves text before the host into the path', () => {
    for (const value of ['http:////user:pw@t.test/x', 'http:\\\\user:pw@t.test/x', 'http:/\\/user:pw@t.test/x']) {
      expect(new URL(value).hostname).toBe('t.test');
      expect(written(value)).not.toContain('pw');
    }
  });
});
