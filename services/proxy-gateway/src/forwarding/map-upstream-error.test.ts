import { ClientBodyTimeoutError, mapUpstreamError, UpstreamTimeoutError } from './map-upstream-error';

function withCode(message: string, code?: string): Error & { code?: string } {
  return Object.assign(new Error(message), code ? { code } : {});
}

describe('mapUpstreamError', () => {
  it.each([
    [withCode('connect ECONNREFUSED', 'ECONNREFUSED'), 502, 'refused the connection'],
    [withCode('getaddrinfo ENOTFOUND', 'ENOTFOUND'), 502, 'does not resolve'],
    [withCode('socket hang up', 'ECONNRESET'), 502, 'closed the connection'],
    [withCode('self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT'), 502, 'TLS handshake'],
    [withCode('weird'), 502, 'could not be reached'],
    [withCode('other side closed', 'UND_ERR_SOCKET'), 502, 'closed the connection'],
    [Object.assign(new Error('Response does not match the HTTP/1.1 protocol'), { name: 'HTTPParserError' }), 502, 'sent an invalid HTTP response'],
    [withCode('Connect Timeout Error', 'UND_ERR_CONNECT_TIMEOUT'), 504, 'did not accept the connection in time'],
    [new UpstreamTimeoutError(1500), 504, 'did not answer within 1500 ms'],
    [new ClientBodyTimeoutError(1500), 408, 'sent no part of the request body for 1500 ms'],
  ])('maps %s to %d', (err, status, detail) => {
    const problem = mapUpstreamError(err, 'http://t.test/');
    expect(problem.status).toBe(status);
    expect(problem.detail).toContain(detail);
    expect(problem.toProblem().target).toBe('http://t.test/');
  });
});
