import { buildCurl, quoteShell } from './build-curl';

describe('copy as curl', () => {
  it('replays a GET with its headers, leaving out the ones curl sets itself', () => {
    expect(buildCurl({ method: 'GET', url: 'http://x.test/a?b=1&c=2', headers: { Host: 'x.test', Accept: 'application/json', 'Content-Length': '0' } }))
      .toBe(`curl 'http://x.test/a?b=1&c=2' -H 'Accept: application/json'`);
  });

  it('sends a text body with --data-raw and quotes single quotes for sh', () => {
    const command = buildCurl({
      method: 'post', url: 'http://x.test/form', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: { encoding: 'utf8', data: "name=O'Brien&x=1", size: 16, truncated: false },
    });
    expect(command).toBe(`curl -X POST http://x.test/form -H 'content-type: application/x-www-form-urlencoded' --data-raw 'name=O'\\''Brien&x=1'`);
  });

  it('pipes a binary body through base64 -d and says when it was truncated', () => {
    const command = buildCurl({ method: 'PUT', url: 'http://x.test/bin', body: { encoding: 'base64', data: 'AAEC', size: 3000, truncated: true } });
    expect(command).toBe(`printf %s AAEC | base64 -d | curl -X PUT http://x.test/bin --data-binary @- # body was truncated when captured`);
  });

  it('keeps dot segments (--path-as-is) and braces or brackets (--globoff) as they were sent', () => {
    expect(buildCurl({ method: 'GET', url: 'http://t.test/a/../b?x=1' })).toBe("curl --path-as-is 'http://t.test/a/../b?x=1'");
    expect(buildCurl({ method: 'GET', url: 'http://t.test/users/{id}?f[]=1' })).toBe("curl --globoff 'http://t.test/users/{id}?f[]=1'");
    expect(buildCurl({ method: 'GET', url: 'http://t.test/a.b/c?next=../x' })).toBe("curl 'http://t.test/a.b/c?next=../x'");
  });

  it('repeats a header that has several values', () => {
    expect(buildCurl({ method: 'GET', url: 'http://x.test/', headers: { 'X-A': ['1', '2'] } })).toBe(`curl http://x.test/ -H 'X-A: 1' -H 'X-A: 2'`);
  });

  it.each([
    ['plain', 'plain'],
    ['has space', `'has space'`],
    ['$(rm -rf /)', `'$(rm -rf /)'`],
    ["it's", `'it'\\''s'`],
  ])('quotes %s as %s', (value, quoted) => {
    expect(quoteShell(value)).toBe(quoted);
  });
});
