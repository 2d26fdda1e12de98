import { ENGINE_PROXY_METADATA, type StubMapping } from '@mockyard/contracts';

/** Lowest priority WireMock accepts (Java Integer.MAX_VALUE; 1 is highest), as the engine uses: every ordinary stub wins. */
export const ENGINE_PROXY_PRIORITY = 2147483647;

/** The catch-all stub that makes an engine proxy everything no other stub matches to `targetUrl`. */
export function buildProxyStub(targetUrl: string): StubMapping {
  return {
    name: 'Mockyard engine proxy',
    priority: ENGINE_PROXY_PRIORITY,
    request: { method: 'ANY', urlPattern: '.*' },
    response: { proxyBaseUrl: targetUrl.replace(/\/+$/, '') },
    metadata: structuredClone(ENGINE_PROXY_METADATA) as Record<string, unknown>,
  };
}

export function isProxyStub(stub: StubMapping): boolean {
  const mockyard = stub.metadata?.mockyard as { engineProxy?: unknown } | undefined;
  return mockyard?.engineProxy === true;
}

export function findProxyStubs(stubs: StubMapping[]): StubMapping[] {
  return stubs.filter(isProxyStub);
}

export function proxyTargetOf(stub: StubMapping): string | null {
  const target = (stub.response as { proxyBaseUrl?: unknown }).proxyBaseUrl;
  return typeof target === 'string' ? target : null;
}

export function stubIdOf(stub: StubMapping): string | null {
  return stub.id ?? stub.uuid ?? null;
}
