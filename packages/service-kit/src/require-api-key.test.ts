import type { Request } from 'express';
import { createKeyMatcher, presentedApiKey } from './require-api-key';

const request = (headers: Record<string, string>) => ({ header: (name: string) => headers[name.toLowerCase()] }) as unknown as Request;

describe('createKeyMatcher', () => {
  const matches = createKeyMatcher('the key', 'x.api-key');

  it('matches the configured key only', () => {
    expect(matches('the key')).toBe(true);
    expect(matches('the key ')).toBe(false);
    expect(matches('the ke')).toBe(false);
    expect(matches('THE KEY')).toBe(false);
  });

  it('never matches an absent or empty key', () => {
    expect(matches(undefined)).toBe(false);
    expect(matches('')).toBe(false);
  });

  it('refuses a blank configured key, naming the setting', () => {
    expect(() => createKeyMatcher('   ', 'x.api-key')).toThrow('x.api-key is blank: unset it to run without a key');
  });
});

describe('presentedApiKey', () => {
  it.each([
    ['the named header', { 'x-api-key': 'k1' }, 'k1'],
    ['a bearer token', { authorization: 'Bearer k2' }, 'k2'],
    ['a bearer token in any case, spaces around', { authorization: '  bearer   k 3 ' }, 'k 3'],
    ['the header before the bearer token', { 'x-api-key': 'k1', authorization: 'Bearer k2' }, 'k1'],
    ['the bearer token when the header is empty', { 'x-api-key': '', authorization: 'Bearer k2' }, 'k2'],
    ['nothing for another scheme', { authorization: 'Basic azE=' }, undefined],
    ['nothing at all', {}, undefined],
  ])('takes %s', (_what, headers, expected) => {
    expect(presentedApiKey(request(headers), 'X-Api-Key')).toBe(expected);
  });
});
