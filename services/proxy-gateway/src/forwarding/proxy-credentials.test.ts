import { createProxyCredentialsCheck, PROXY_AUTHENTICATE } from './proxy-credentials';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('createProxyCredentialsCheck (proxy.security.api-key)', () => {
  const check = createProxyCredentialsCheck('s3cret:key')!;
  const spaced = createProxyCredentialsCheck('two words')!;

  it('is no check at all without a key', () => {
    expect(createProxyCredentialsCheck(undefined)).toBeUndefined();
  });

  it('refuses a blank key instead of running open', () => {
    expect(() => createProxyCredentialsCheck('  ')).toThrow('proxy.security.api-key is blank');
  });

  it.each([
    ['Basic, any user name', basic('anyone', 's3cret:key')],
    ['Basic, no user name', basic('', 's3cret:key')],
    ['Bearer', 'Bearer s3cret:key'],
    ['a lower-case scheme and spaces around', '  basic ' + Buffer.from('u:s3cret:key').toString('base64') + ' '],
  ])('lets %s through', (_what, header) => {
    expect(check(header)).toBeUndefined();
  });

  it('takes a key with a space in it, as Bearer and as Basic', () => {
    expect(spaced('Bearer two words')).toBeUndefined();
    expect(spaced(basic('u', 'two words'))).toBeUndefined();
    expect(spaced('Bearer two')).toMatchObject({ status: 407 });
  });

  it.each([
    ['no header', undefined, 'Proxy credentials required'],
    ['an empty header', '', 'Proxy credentials required'],
    ['another scheme', 'Digest username="u"', 'Proxy credentials required'],
    ['Basic without a colon', `Basic ${Buffer.from('s3cret:key'.replace(':', '')).toString('base64')}`, 'Proxy credentials required'],
    ['a wrong password', basic('u', 's3cret:kex'), 'Proxy credentials are not valid'],
    ['the key as user name', basic('s3cret:key', ''), 'Proxy credentials are not valid'],
    ['a wrong bearer token', 'Bearer s3cret', 'Proxy credentials are not valid'],
  ])('answers 407 with the challenge for %s', (_what, header, detail) => {
    const problem = check(header);
    expect(problem).toMatchObject({ status: 407, detail: expect.stringContaining(detail) });
    expect(problem!.extra.headers).toEqual({ 'Proxy-Authenticate': PROXY_AUTHENTICATE });
  });
});
