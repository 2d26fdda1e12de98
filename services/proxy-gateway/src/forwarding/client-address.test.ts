import type { IncomingMessage } from 'node:http';
import { findClientAddress } from './client-address';

function request(remoteAddress: string | undefined, forwardedFor?: string | string[]): IncomingMessage {
  return { socket: { remoteAddress }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } } as unknown as IncomingMessage;
}

describe('findClientAddress', () => {
  it.each([
    [request('127.0.0.1', '10.0.0.9'), false, '127.0.0.1'],
    [request('::ffff:192.168.1.5'), false, '192.168.1.5'],
    [request('::1'), false, '::1'],
    [request('127.0.0.1', '10.0.0.9, 172.16.0.1'), true, '10.0.0.9'],
    [request('127.0.0.1', ['10.0.0.7', '10.0.0.8']), true, '10.0.0.7'],
    [request('127.0.0.1', ''), true, '127.0.0.1'],
    [request('127.0.0.1'), true, '127.0.0.1'],
    [request(undefined), false, undefined],
  ])('%#: trust X-Forwarded-For %s → %s', (req, trust, expected) => {
    expect(findClientAddress(req, trust)).toBe(expected);
  });
});
