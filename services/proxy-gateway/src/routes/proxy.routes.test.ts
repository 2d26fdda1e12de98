import { isProxyPath } from './proxy.routes';

describe('isProxyPath', () => {
  it.each([
    ['/proxy', true],
    ['/proxy?url=http://t.test/', true],
    ['/proxy/', true],
    ['/proxy/?url=x', true],
    ['/proxyx', false],
    ['/proxy/other', false],
    ['/api/proxy', false],
    [undefined, false],
  ])('%s → %s', (url, expected) => {
    expect(isProxyPath(url)).toBe(expected);
  });
});
