import { buildProxyStub, findProxyStubs, isProxyStub, proxyTargetOf } from './proxy-stub';

describe('engine proxy stub', () => {
  it('is a lowest-priority catch-all proxying to the target, marked in its metadata', () => {
    const stub = buildProxyStub('http://upstream:8080/base/');
    expect(stub).toMatchObject({ request: { method: 'ANY', urlPattern: '.*' }, response: { proxyBaseUrl: 'http://upstream:8080/base' }, metadata: { mockyard: { engineProxy: true } } });
    expect(stub.priority).toBeGreaterThan(5);
    expect(proxyTargetOf(stub)).toBe('http://upstream:8080/base');
  });

  it.each([
    [{ mockyard: { engineProxy: true } }, true],
    [{ mockyard: { engineProxy: 'true' } }, false],
    [{ other: { engineProxy: true } }, false],
    [undefined, false],
  ])('recognises metadata %j as the proxy: %s', (metadata, expected) => {
    expect(isProxyStub({ request: {}, response: {}, metadata })).toBe(expected);
  });

  it('finds only proxy stubs among others', () => {
    const stubs = [{ request: {}, response: {} }, buildProxyStub('http://a'), { request: {}, response: { proxyBaseUrl: 'http://b' } }];
    expect(findProxyStubs(stubs)).toHaveLength(1);
  });
});
