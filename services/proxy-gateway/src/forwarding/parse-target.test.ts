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
    // the cases of pathAsWritten (contracts), through both forms of the query
    ["url=http://t.test/a/../b?q=it's", "/a/../b?q=it's"],
    ['url=http%3A%2F%2Ft.test%2Fa%2F..%2Fb', '/a/../b'],
    ['url=http%3A%2F%2Ft.test%2Fcaf%C3%A9', '/caf%C3%A9'],
    ['url=http:////user:pw@t.test/x', '/x'],
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
