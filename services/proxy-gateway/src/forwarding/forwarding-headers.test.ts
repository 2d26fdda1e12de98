import { buildUpstreamHeaders, filterRawHeaders, stripHopByHopHeaders, toRawHeaders } from './forwarding-headers';

describe('stripHopByHopHeaders', () => {
  it.each([
    [['Connection', 'keep-alive', 'Keep-Alive', 'timeout=5', 'X-A', '1'], [['X-A', '1']]],
    [['Transfer-Encoding', 'chunked', 'TE', 'trailers', 'Trailer', 'X', 'Upgrade', 'h2c'], []],
    [['Proxy-Authorization', 'Basic x', 'Proxy-Connection', 'close', 'Accept', '*/*'], [['Accept', '*/*']]],
    [['Connection', 'X-Secret, close', 'X-Secret', 's', 'X-Kept', 'k'], [['X-Kept', 'k']]],
    // tokens across two Connection headers, OWS (tabs too) around them
    [['connection', '\tX-One\t', 'CONNECTION', 'close ,  x-two', 'X-One', '1', 'X-Two', '2', 'X-Kept', 'k'], [['X-Kept', 'k']]],
    [['Set-Cookie', 'a=1', 'set-cookie', 'b=2', 'Content-Type', 'text/plain'], [['Set-Cookie', ['a=1', 'b=2']], ['Content-Type', 'text/plain']]],
  ])('keeps only end-to-end headers of %j', (raw, expected) => {
    expect(stripHopByHopHeaders(raw)).toEqual(expected);
  });
});

describe('filterRawHeaders', () => {
  it.each([
    [['Connection', 'keep-alive', 'Keep-Alive', 'timeout=5', 'X-A', '1'], ['X-A', '1']],
    [['Transfer-Encoding', 'chunked', 'Content-Type', 'text/plain'], ['Content-Type', 'text/plain']],
    [['Connection', 'X-Secret', 'X-Secret', 's', 'X-Kept', 'k'], ['X-Kept', 'k']],
    [['connection', '\tX-One\t', 'CONNECTION', 'close ,  x-two', 'X-One', '1', 'X-Two', '2', 'X-Kept', 'k'], ['X-Kept', 'k']],
    [['Set-Cookie', 'a=1', 'set-cookie', 'b=2'], ['Set-Cookie', 'a=1', 'set-cookie', 'b=2']],
  ])('keeps only the end-to-end headers of %j, repeats included', (raw, expected) => {
    expect(filterRawHeaders(raw)).toEqual(expected);
  });

  it('drops the extra names it is given', () => {
    expect(filterRawHeaders(['X-Request-Id', 'up', 'Date', 'd'], ['date'])).toEqual(['X-Request-Id', 'up']);
  });
});

describe('buildUpstreamHeaders', () => {
  const target = new URL('http://upstream.test:8081/a?b=1');

  it('sets Host to the target and adds X-Forwarded-For, -Proto and -Host', () => {
    const headers = buildUpstreamHeaders(['Host', 'localhost:8080', 'Accept', 'application/json', 'Connection', 'keep-alive', 'Expect', '100-continue'], target, {
      clientAddress: '127.0.0.1',
      proto: 'http',
      host: 'localhost:8080',
    });
    expect(headers).toEqual([
      ['Host', 'upstream.test:8081'],
      ['Accept', 'application/json'],
      ['X-Forwarded-For', '127.0.0.1'],
      ['X-Forwarded-Proto', 'http'],
      ['X-Forwarded-Host', 'localhost:8080'],
    ]);
  });

  it('appends the client to an existing X-Forwarded-For chain and replaces spoofed -Proto/-Host', () => {
    const headers = buildUpstreamHeaders(
      ['X-Forwarded-For', '10.0.0.1', 'x-forwarded-for', '10.0.0.2', 'X-Forwarded-Proto', 'https', 'X-Forwarded-Host', 'evil.test'],
      target,
      { clientAddress: '127.0.0.1', proto: 'http', host: undefined },
    );
    expect(headers).toEqual([
      ['Host', 'upstream.test:8081'],
      ['X-Forwarded-For', '10.0.0.1, 10.0.0.2, 127.0.0.1'],
      ['X-Forwarded-Proto', 'http'],
    ]);
  });

  it("sends the target's user-info as Authorization: Basic, percent-decoded, unless the client sent Authorization", () => {
    const forwarded = { clientAddress: undefined, proto: 'http' as const, host: undefined };
    const withUser = new URL('http://al%20ice:p%C3%A4ss%3Aw@upstream.test/');
    expect(buildUpstreamHeaders([], withUser, forwarded)).toContainEqual(['Authorization', `Basic ${Buffer.from('al ice:päss:w').toString('base64')}`]);
    expect(buildUpstreamHeaders([], new URL('http://%zz@upstream.test/'), forwarded)).toContainEqual(['Authorization', `Basic ${Buffer.from('%zz:').toString('base64')}`]);
    const own = buildUpstreamHeaders(['authorization', 'Bearer t'], withUser, forwarded);
    expect(own.filter(([name]) => name.toLowerCase() === 'authorization')).toEqual([['authorization', 'Bearer t']]);
    expect(buildUpstreamHeaders([], target, forwarded).some(([name]) => name === 'Authorization')).toBe(false);
  });
});

describe('toRawHeaders', () => {
  it('repeats a header once per value', () => {
    expect(toRawHeaders([['Set-Cookie', ['a=1', 'b=2']], ['X', 'y']])).toEqual(['Set-Cookie', 'a=1', 'Set-Cookie', 'b=2', 'X', 'y']);
  });
});
