import { toLogSafeUrl } from './log-safe-url';

describe('toLogSafeUrl', () => {
  it.each([
    ['http://h:1/p?password=s3cret&x=1', 'http://h:1/p?[query omitted]'],
    ['Target http://h/p?token=abc refused the connection (ECONNREFUSED)', 'Target http://h/p?[query omitted] refused the connection (ECONNREFUSED)'],
    ['https://user:pa55@h/p', 'https://[redacted]@h/p'],
    ['http://h/p#frag', 'http://h/p#frag'],
    ['http://h/plain', 'http://h/plain'],
    ['no url here ?a=b', 'no url here ?a=b'],
  ])('%s → %s', (input, expected) => {
    expect(toLogSafeUrl(input)).toBe(expected);
  });
});
