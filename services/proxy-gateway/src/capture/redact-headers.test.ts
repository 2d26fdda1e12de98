import { redactHeaders } from './redact-headers';

describe('redactHeaders', () => {
  const redacted = new Set(['authorization', 'cookie', 'set-cookie', 'x-api-key']);

  it.each([
    [{ authorization: 'Bearer t', accept: '*/*' }, { authorization: '[redacted]', accept: '*/*' }],
    [{ 'set-cookie': ['a=1', 'b=2'] }, { 'set-cookie': ['[redacted]', '[redacted]'] }],
    [{ 'X-Api-Key': 'k', cookie: 'c=1' }, { 'X-Api-Key': '[redacted]', cookie: '[redacted]' }],
    [{ 'content-type': 'text/plain', gone: undefined }, { 'content-type': 'text/plain' }],
  ])('redacts %j', (headers, expected) => {
    expect(redactHeaders(headers, redacted)).toEqual(expected);
  });

  it('keeps everything when nothing is configured', () => {
    expect(redactHeaders({ authorization: 'Bearer t' }, new Set())).toEqual({ authorization: 'Bearer t' });
  });
});
