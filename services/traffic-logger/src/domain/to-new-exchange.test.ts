import type { TrafficEvent } from '@mockyard/contracts';
import { toNewExchange } from './to-new-exchange';

const event: TrafficEvent = {
  id: '3f1c2b7e-6a0d-4d8e-9b51-0c9f1e2d3a4b',
  startedAt: '2026-11-22T10:00:00.000Z',
  durationMs: 5,
  source: 'proxy',
  requestId: 'req-1',
  method: 'get',
  url: 'https://API.Example.test:8443/a/b?c=d',
  request: { headers: { host: 'api.example.test:8443' } },
};

describe('toNewExchange', () => {
  it('splits the target URL and uppercases the method', () => {
    expect(toNewExchange(event)).toMatchObject({ method: 'GET', scheme: 'https', host: 'api.example.test', port: 8443, path: '/a/b?c=d', correlationId: 'req-1', status: null, responseHeaders: null });
  });

  it('stores the path as the gateway sent it: dot segments and quotes kept', () => {
    expect(toNewExchange({ ...event, url: "http://t.test/a/../b?q=it's" })).toMatchObject({ host: 't.test', path: "/a/../b?q=it's" });
  });

  it('takes host and port from the Host header for an origin-form URL', () => {
    expect(toNewExchange({ ...event, url: '/stub/path', request: { headers: { Host: 'localhost:9090' } } })).toMatchObject({ host: 'localhost', port: 9090, path: '/stub/path', scheme: 'http' });
  });

  it('takes host and port of a CONNECT tunnel from the tunnel', () => {
    const row = toNewExchange({ ...event, method: 'CONNECT', source: 'tunnel', url: 'db.example.test:443', tunnel: { host: 'DB.example.test', port: 443, bytesUp: 10, bytesDown: 20 } });
    expect(row).toMatchObject({ scheme: 'tcp', host: 'db.example.test', port: 443, path: '', tunnelBytesUp: 10, tunnelBytesDown: 20 });
  });

  it('keeps a text body containing NUL losslessly as base64 and replaces NUL elsewhere', () => {
    const row = toNewExchange({
      ...event,
      request: { headers: { 'x-odd': 'a\u0000b' }, body: { encoding: 'utf8', data: 'x\u0000y', size: 3, truncated: false } },
    });
    expect(row.requestBody).toMatchObject({ encoding: 'base64', data: Buffer.from('x\u0000y').toString('base64') });
    expect(row.requestHeaders['x-odd']).toBe('a\uFFFDb');
  });
});
