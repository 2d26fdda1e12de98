import { HttpProblem } from '@mockyard/service-kit';
import { parseProxyTarget, targetHref } from './parse-target';

describe('parseProxyTarget', () => {
  it.each([
    ['url=http://example.test/a', 'http://example.test/a'],
    ['url=https://example.test:8443/a/b?x=1', 'https://example.test:8443/a/b?x=1'],
    ['url=http://example.test/a?b=1&c=2', 'http://example.test/a?b=1&c=2'],
    ['url=http%3A%2F%2Fexample.test%2Fa%3Fb%3D1%26c%3D2', 'http://example.test/a?b=1&c=2'],
    ['x=1&url=http://example.test/p', 'http://example.test/p'],
    ['url=HTTP://Example.Test/Path', 'http://example.test/Path'],
    ['url=http://example.test/a?url=http://other.test/b', 'http://example.test/a?url=http://other.test/b'],
  ])('reads %s as %s', (query, expected) => {
    expect(parseProxyTarget(query).url.toString()).toBe(expected);
  });

  it.each([
    // as written: what any HTTP client would send (dot segments, quotes, braces, the target's own escapes)
    ['url=http://t.test/a/../b?q=it%27s', '/a/../b?q=it%27s'],
    ["url=http://t.test/a/./b?q=it's", "/a/./b?q=it's"],
    ['url=http://t.test/users/{id}/x', '/users/{id}/x'],
    ['url=http://t.test/a%2Fb/%7e', '/a%2Fb/%7e'],
    ['url=http%3A%2F%2Ft.test%2Fa%2F..%2Fb', '/a/../b'],
    ['url=http://t.test?x=1', '/?x=1'],
    ['url=http://t.test/p#fragment', '/p'],
    ['url=http://user:pw@t.test:81/p', '/p'],
    // not sendable as written: the URL's normal form
    ['url=http://t.test', '/'],
    ['url=http://t.test/a b', '/a%20b'],
    ['url=http://t.test/caf%C3%A9', '/caf%C3%A9'],
    ['url=http%3A%2F%2Ft.test%2Fcaf%C3%A9', '/caf%C3%A9'],
    ['url=http://t.test\\a/../b', '/b'],
    ['url=http:/t.test/a/../b', '/b'],
  ])('sends %s to the target as %s', (query, path) => {
    expect(parseProxyTarget(query).path).toBe(path);
  });

  it('logs the target without its user-info', () => {
    expect(targetHref(parseProxyTarget('url=http://user:pw@t.test:81/a/../b'))).toBe('http://t.test:81/a/../b');
  });

  it.each([
    ['', 'required'],
    ['url=', 'required'],
    ['url=not%20a%20url', 'not an absolute URL'],
    ['url=/relative/path', 'not an absolute URL'],
    ['url=ftp://example.test/file', 'only http and https'],
    ['url=file:///etc/passwd', 'only http and https'],
    ['url=javascript:alert(1)', 'only http and https'],
    ['url=http%3A%2F%2Fa.test%2F&url=http%3A%2F%2Fb.test%2F', 'given 2 times'],
    ['url=http%3A%2F%2Fa.test%2F&url=http://b.test/', 'given 2 times'],
    ['url=&url=http://b.test/', 'given 2 times'],
  ])('rejects %j with a 400 problem (%s)', (query, detail) => {
    let thrown: unknown;
    try {
      parseProxyTarget(query);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(HttpProblem);
    expect((thrown as HttpProblem).status).toBe(400);
    expect((thrown as HttpProblem).detail).toContain(detail);
  });
});
