import type { StoredExchange } from './stored-exchange';
import { toHarEntry, toHarHeaders } from './to-har-entry';

const base: StoredExchange = {
  id: '3f1c2b7e-6a0d-4d8e-9b51-0c9f1e2d3a4b',
  seq: 7,
  startedAt: new Date('2026-11-22T10:00:00.000Z'),
  durationMs: 42.5,
  source: 'proxy',
  engineId: null,
  clientAddress: '127.0.0.1',
  correlationId: null,
  method: 'POST',
  url: 'http://api.example.test/orders?expand=items&expand=customer',
  scheme: 'http',
  host: 'api.example.test',
  port: null,
  path: '/orders?expand=items&expand=customer',
  requestHeaders: { 'content-type': 'application/json', accept: ['a/b', 'c/d'] },
  requestBody: { encoding: 'utf8', data: '{"a":1}', size: 7, truncated: false, contentType: 'application/json' },
  status: 201,
  statusMessage: 'Created',
  responseHeaders: { location: '/orders/1', 'content-type': 'application/json' },
  responseBody: { encoding: 'base64', data: 'AAEC', size: 3, truncated: true },
  error: null,
  tunnelBytesUp: null,
  tunnelBytesDown: null,
  matchedStubId: null,
  nearMiss: null,
  storedAt: new Date('2026-11-22T10:00:01.000Z'),
};

describe('toHarEntry', () => {
  it('maps request, response, timings and query string to HAR 1.2', () => {
    const entry = toHarEntry(base);
    expect(entry).toMatchObject({
      startedDateTime: '2026-11-22T10:00:00.000Z',
      time: 42.5,
      request: {
        method: 'POST',
        httpVersion: 'HTTP/1.1',
        queryString: [
          { name: 'expand', value: 'items' },
          { name: 'expand', value: 'customer' },
        ],
        postData: { mimeType: 'application/json', text: '{"a":1}', params: [] },
        headersSize: -1,
        bodySize: 7,
      },
      response: { status: 201, statusText: 'Created', redirectURL: '/orders/1', content: { size: 3, mimeType: 'application/json', text: 'AAEC', encoding: 'base64', _truncated: true } },
      timings: { send: 0, wait: 42.5, receive: 0 },
      _id: base.id,
      _seq: 7,
    });
  });

  it.each([
    ['api.example.test:443', 'api.example.test', 443, 'https://api.example.test/'],
    ['api.example.test:8443', 'api.example.test', 8443, 'https://api.example.test:8443/'],
    ['[::1]:9443', '::1', 9443, 'https://[::1]:9443/'],
  ])('gives a CONNECT tunnel to %s an absolute URL and keeps its target and byte counts', (target, host, port, url) => {
    const tunnel: StoredExchange = { ...base, source: 'tunnel', method: 'CONNECT', url: target, scheme: 'tcp', host, port, path: '', requestHeaders: {}, requestBody: null, status: 200, statusMessage: 'Connection Established', responseHeaders: {}, responseBody: null, tunnelBytesUp: 517, tunnelBytesDown: 4096 };
    const entry = toHarEntry(tunnel);
    expect(entry.request).toMatchObject({ method: 'CONNECT', url, queryString: [] });
    expect(entry._tunnel).toEqual({ target, bytesUp: 517, bytesDown: 4096 });
    expect(toHarEntry(base)._tunnel).toBeUndefined();
  });

  it('maps an exchange without response to status 0 with the error', () => {
    const entry = toHarEntry({ ...base, status: null, statusMessage: null, responseHeaders: null, responseBody: null, error: 'timeout' });
    expect(entry.response).toMatchObject({ status: 0, statusText: '', headers: [], content: { size: 0, mimeType: 'x-unknown' }, bodySize: -1, _error: 'timeout' });
  });

  it('marks a binary request body as base64 and omits postData without a body', () => {
    expect(toHarEntry({ ...base, requestBody: { encoding: 'base64', data: 'AA==', size: 1, truncated: false } }).request.postData).toMatchObject({ _encoding: 'base64', mimeType: 'application/json' });
    expect(toHarEntry({ ...base, requestBody: null }).request.postData).toBeUndefined();
  });
});

describe('toHarHeaders', () => {
  it('lists a multi-valued header once per value', () => {
    expect(toHarHeaders({ accept: ['a/b', 'c/d'], host: 'x' })).toEqual([
      { name: 'accept', value: 'a/b' },
      { name: 'accept', value: 'c/d' },
      { name: 'host', value: 'x' },
    ]);
  });
});
