import { ResponseParser, ResponseParseError, type ResponseHead } from './response-parser';

interface Parsed {
  head?: ResponseHead;
  body: string;
  ended: boolean;
  parser: ResponseParser;
}

/** Feeds `wire` in the given pieces (split at `cuts`), as reads of a socket. */
function parse(wire: string, { cuts = [] as number[], isHead = false, maxHeaderSize = 16384 } = {}): Parsed {
  const parser = new ResponseParser(isHead, maxHeaderSize);
  const out: Parsed = { body: '', ended: false, parser };
  const bytes = Buffer.from(wire, 'latin1');
  const bounds = [0, ...cuts, bytes.length];
  for (let i = 0; i + 1 < bounds.length && !out.ended; i++) {
    out.ended = parser.execute(
      bytes.subarray(bounds[i], bounds[i + 1]),
      (head) => {
        expect(out.head).toBeUndefined();
        out.head = head;
      },
      (body) => {
        out.body += body.toString('latin1');
      },
    );
  }
  return out;
}

function parseError(wire: string, options?: Parameters<typeof parse>[1]): ResponseParseError {
  try {
    parse(wire, options);
  } catch (err) {
    expect(err).toBeInstanceOf(ResponseParseError);
    return err as ResponseParseError;
  }
  throw new Error('parsed without an error');
}

const every = (wire: string) => Array.from({ length: wire.length - 1 }, (_, i) => [i + 1]);

describe('ResponseParser', () => {
  const lengthFramed = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nhello world';
  it.each(every(lengthFramed))('reads a Content-Length body whatever the reads (split at %i)', (cut) => {
    const { head, body, ended, parser } = parse(lengthFramed, { cuts: [cut] });
    expect(head).toMatchObject({ status: 200, statusMessage: 'OK', rawHeaders: ['Content-Type', 'text/plain', 'Content-Length', '11'] });
    expect(head?.headers).toEqual({ 'content-type': 'text/plain', 'content-length': '11' });
    expect([body, ended, parser.keepAlive, parser.leftover]).toEqual(['hello world', true, true, 0]);
  });

  const chunked = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n';
  it.each(every(chunked))('de-chunks a chunked body with extensions and trailers (split at %i)', (cut) => {
    const { body, ended, parser } = parse(chunked, { cuts: [cut] });
    expect([body, ended, parser.keepAlive, parser.leftover]).toEqual(['hello world', true, true, 0]);
  });

  it('reads a body without framing up to the close, and does not reuse the connection', () => {
    const { body, ended, parser } = parse('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end');
    expect([body, ended, parser.endsAtClose(), parser.keepAlive]).toEqual(['until the end', false, true, false]);
  });

  it('reads a non-chunked transfer coding up to the close', () => {
    const { body, ended, parser } = parse('HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nxyz');
    expect([body, ended, parser.endsAtClose(), parser.keepAlive]).toEqual(['xyz', false, true, false]);
  });

  it.each([
    ['a HEAD request', 'HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n', true],
    ['204', 'HTTP/1.1 204 No Content\r\n\r\n', false],
    ['304', 'HTTP/1.1 304 Not Modified\r\nContent-Length: 12\r\n\r\n', false],
    ['Content-Length: 0', 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n', false],
  ])('ends at the head for %s', (_name, wire, isHead) => {
    const { head, body, ended, parser } = parse(wire, { isHead });
    expect([head?.status !== undefined, body, ended, parser.keepAlive, parser.leftover]).toEqual([true, '', true, true, 0]);
  });

  it('skips interim 1xx heads and hands over the final one', () => {
    const { head, body, ended } = parse('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok', { cuts: [10, 30] });
    expect([head?.status, head?.statusMessage, body, ended]).toEqual([201, 'Created', 'ok', true]);
  });

  it('counts bytes beyond the response as leftover', () => {
    const { ended, parser } = parse('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200');
    expect([ended, parser.leftover]).toEqual([true, 12]);
  });

  it('keeps repeated headers as arrays, in order, with their spelling in the raw list; trims only SP and HTAB', () => {
    const { head } = parse('HTTP/1.1 200 \r\nSet-Cookie: a=1\r\nset-cookie:b=2 \t\r\nX-Nbsp: \xa0v\xa0\r\n__proto__: p\r\nContent-Length: 0\r\n\r\n');
    expect(head?.statusMessage).toBe('');
    expect(head?.rawHeaders).toEqual(['Set-Cookie', 'a=1', 'set-cookie', 'b=2', 'X-Nbsp', '\xa0v\xa0', '__proto__', 'p', 'Content-Length', '0']);
    expect(head?.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(Object.hasOwn(head?.headers ?? {}, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(head?.headers)).toBe(Object.prototype);
  });

  it.each([
    ['HTTP/1.1 with no Connection header', 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n', true, undefined],
    ['Connection: close', 'HTTP/1.1 200 OK\r\nConnection: Keep-Alive, Close\r\nContent-Length: 0\r\n\r\n', false, undefined],
    ['HTTP/1.0', 'HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n', false, undefined],
    ['HTTP/1.0 with Connection: keep-alive', 'HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n', true, undefined],
    ['a Keep-Alive timeout of 5 s (2 s of margin, as undici)', 'HTTP/1.1 200 OK\r\nKeep-Alive: timeout=5, max=100\r\nContent-Length: 0\r\n\r\n', true, 3000],
    ['a Keep-Alive timeout of 2 s (no margin left)', 'HTTP/1.1 200 OK\r\nKeep-Alive: timeout=2\r\nContent-Length: 0\r\n\r\n', false, 0],
  ])('decides whether the connection is reused: %s', (_name, wire, keepAlive, hint) => {
    const { head, parser } = parse(wire);
    expect([parser.keepAlive, head?.keepAliveHintMs]).toEqual([keepAlive, hint]);
  });

  it.each([
    ['a status line that is not HTTP', 'ICY 200 OK\r\n\r\n', 'HPE_INVALID_CONSTANT'],
    ['a status code of two digits', 'HTTP/1.1 20 OK\r\n\r\n', 'HPE_INVALID_STATUS'],
    ['101 to a request without Upgrade', 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n', 'HPE_INVALID_STATUS'],
    ['a folded header line (obs-fold)', 'HTTP/1.1 200 OK\r\nX-A: 1\r\n  2\r\nContent-Length: 0\r\n\r\n', 'HPE_INVALID_HEADER_TOKEN'],
    ['a header name with a space', 'HTTP/1.1 200 OK\r\nX A: 1\r\n\r\n', 'HPE_INVALID_HEADER_TOKEN'],
    ['a control character in a value', 'HTTP/1.1 200 OK\r\nX-A: a\x01b\r\n\r\n', 'HPE_INVALID_HEADER_TOKEN'],
    ['Content-Length beside Transfer-Encoding', 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n', 'HPE_UNEXPECTED_CONTENT_LENGTH'],
    ['two different Content-Lengths', 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd', 'HPE_UNEXPECTED_CONTENT_LENGTH'],
    ['the same Content-Length twice', 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc', 'HPE_UNEXPECTED_CONTENT_LENGTH'],
    ['a Content-Length list', 'HTTP/1.1 200 OK\r\nContent-Length: 3, 3\r\n\r\nabc', 'HPE_INVALID_CONTENT_LENGTH'],
    ['a status code under 100', 'HTTP/1.1 099 Odd\r\n\r\n', 'HPE_INVALID_STATUS'],
    ['status 000', 'HTTP/1.1 000 Zero\r\nContent-Length: 0\r\n\r\n', 'HPE_INVALID_STATUS'],
    ['a head with bare LF line ends', 'HTTP/1.1 200 OK\nContent-Length: 2\n\nok', 'HPE_CR_EXPECTED'],
    ['one bare LF among CRLFs', 'HTTP/1.1 200 OK\r\nX-A: 1\nContent-Length: 2\r\n\r\nok', 'HPE_CR_EXPECTED'],
    ['whitespace after a chunk size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2 \r\nab\r\n0\r\n\r\n', 'HPE_INVALID_CHUNK_SIZE'],
    ['a trailer line that is not a field', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nNot a field\r\n\r\n', 'HPE_INVALID_HEADER_TOKEN'],
    ['an empty chunk extension', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;\r\nab\r\n0\r\n\r\n', 'HPE_INVALID_CHUNK_SIZE'],
    ['a signed Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: +3\r\n\r\nabc', 'HPE_INVALID_CONTENT_LENGTH'],
    ['a chunk size that is not hex', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 'HPE_INVALID_CHUNK_SIZE'],
    ['chunk data longer than its size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n', 'HPE_STRICT'],
    ['a bare LF in chunked framing', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\nab\r\n0\r\n\r\n', 'HPE_CR_EXPECTED'],
  ])('refuses %s', (_name, wire, code) => {
    expect(parseError(wire).code).toBe(code);
  });

  it('finds a bare LF in a head split across reads, and leaves the body alone', () => {
    const wire = 'HTTP/1.1 200 OK\r\nX-A: 1\nContent-Length: 2\r\n\r\nok';
    for (const [cut] of every(wire).slice(0, 30)) expect(parseError(wire, { cuts: [cut] }).code).toBe('HPE_CR_EXPECTED');
    expect(parse('HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\na\nb').body).toBe('a\nb');
  });

  it('skips empty lines before a status line, and takes quoted and token chunk extensions', () => {
    expect(parse('\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok').body).toBe('ok');
    expect(parse('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;a=b;c="d e";f\r\nok\r\n0\r\n\r\n').body).toBe('ok');
  });

  it('refuses a head over the size limit, even one that never ends', () => {
    const big = `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(300)}\r\n\r\n`;
    expect(parseError(big, { maxHeaderSize: 256 }).code).toBe('UND_ERR_HEADERS_OVERFLOW');
    expect(parseError(`HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(300)}`, { maxHeaderSize: 256, cuts: [100, 200] }).code).toBe('UND_ERR_HEADERS_OVERFLOW');
    expect(parse(big, { maxHeaderSize: 512 }).head?.status).toBe(200);
  });
});
