import { randomUUID } from 'node:crypto';
import type { StubMapping } from '@mockyard/matching';
import { AdminError } from './admin-error';
import type { MockEngine } from './mock-engine';

/**
 * Priority of the engine-wide proxy stub: the largest value WireMock accepts (Java Integer.MAX_VALUE), so
 * every other stub wins over it and it only catches what nothing else matches.
 */
export const ENGINE_PROXY_PRIORITY = 2147483647;

/** Metadata that marks the engine-owned catch-all proxy stub (the same marker works on genuine WireMock). */
export const ENGINE_PROXY_METADATA = { mockyard: { engineProxy: true } };

export interface EngineProxyState {
  enabled: boolean;
  targetUrl: string | null;
  stubId: string | null;
}

export function isEngineProxyStub(stub: StubMapping): boolean {
  const m = stub.metadata?.mockyard as { engineProxy?: unknown } | undefined;
  return m?.engineProxy === true;
}

/** The engine proxy stub for a target (also what the hub posts to a genuine WireMock). */
export function buildEngineProxyStub(targetUrl: string, id: string = randomUUID()): StubMapping {
  return {
    id,
    uuid: id,
    name: 'mockyard-engine-proxy',
    request: { method: 'ANY', urlPattern: '.*' },
    response: { proxyBaseUrl: targetUrl },
    priority: ENGINE_PROXY_PRIORITY,
    metadata: ENGINE_PROXY_METADATA,
  };
}

function parseTargetUrl(value: unknown): string {
  try {
    const url = new URL(String(value));
    if (url.protocol === 'http:' || url.protocol === 'https:') return String(value).replace(/\/+$/, '');
  } catch {
    // fall through
  }
  throw AdminError.invalidEntity([{ path: '/targetUrl', message: 'targetUrl must be an absolute http(s) URL' }]);
}

/** Reads the state from the stubs themselves: the proxy is on while its marked stub exists. */
export function readEngineProxy(engine: MockEngine): EngineProxyState {
  const stub = engine.allStubs().find(isEngineProxyStub);
  return stub ? { enabled: true, targetUrl: stub.response.proxyBaseUrl ?? null, stubId: stub.id } : { enabled: false, targetUrl: null, stubId: null };
}

/** Enables (or retargets: the old proxy stub is replaced) the engine-wide proxy. */
export async function enableEngineProxy(engine: MockEngine, body: unknown): Promise<EngineProxyState> {
  const targetUrl = parseTargetUrl((body as { targetUrl?: unknown } | null)?.targetUrl);
  const previous = engine.allStubs().filter(isEngineProxyStub);
  await engine.putStub(buildEngineProxyStub(targetUrl, previous[0]?.id));
  for (const extra of previous.slice(1)) await engine.removeStub(extra.id);
  return readEngineProxy(engine);
}

/** Removes only the engine proxy stub(s); other stubs are never touched. */
export async function disableEngineProxy(engine: MockEngine): Promise<EngineProxyState> {
  for (const stub of engine.allStubs().filter(isEngineProxyStub)) await engine.removeStub(stub.id);
  return readEngineProxy(engine);
}
