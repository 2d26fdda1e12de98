import { randomUUID } from 'node:crypto';
import { compileRequestPattern, matchRequestPattern, validateRequestPattern, type StubMapping } from '@mockyard/matching';
import { AdminError, toPointer } from './admin-error';
import type { MockEngine } from './mock-engine';
import { generateStubs, type GeneratedStub, type RecordSpec } from './record-stubs';
import type { ServeEvent } from './serve-event';

export type RecordingStatus = 'NeverStarted' | 'Recording' | 'Stopped';

/** Priority of the recorder's proxy stub: above every ordinary stub while recording. */
export const RECORDER_PROXY_PRIORITY = 1;

function parseSpec(json: unknown, requireTarget: boolean): RecordSpec {
  const spec = (json ?? {}) as RecordSpec;
  if (typeof spec !== 'object' || Array.isArray(spec)) throw AdminError.invalidEntity([{ path: '/', message: 'expected a record spec object' }]);
  if (requireTarget || spec.targetBaseUrl !== undefined) {
    let ok = false;
    try {
      ok = ['http:', 'https:'].includes(new URL(String(spec.targetBaseUrl)).protocol);
    } catch {
      ok = false;
    }
    if (!ok) throw AdminError.invalidEntity([{ path: '/targetBaseUrl', message: 'targetBaseUrl must be an absolute http(s) URL' }]);
  }
  if (spec.filters) {
    const { ids: _ids, allowNonProxied: _a, ...pattern } = spec.filters;
    const result = validateRequestPattern(pattern);
    if (!result.ok) throw AdminError.invalidEntity(result.errors.map((e) => ({ path: `/filters${toPointer(e.path)}`, message: e.message })));
  }
  return spec;
}

function filterMatcher(spec: RecordSpec): (e: ServeEvent) => boolean {
  if (!spec.filters) return () => true;
  const { ids, allowNonProxied: _a, ...pattern } = spec.filters;
  const idSet = ids ? new Set(ids) : undefined;
  const hasPattern = Object.keys(pattern).length > 0;
  const compiled = hasPattern ? compileRequestPattern(pattern) : undefined;
  return (e) => (!idSet || idSet.has(e.id)) && (!compiled || matchRequestPattern(compiled, e.request).isExactMatch);
}

/**
 * WireMock's recorder: start installs a proxy stub to the target and captures what it serves; stop removes it
 * and turns the captured exchanges into stubs; snapshot does the same from the request journal.
 */
export class Recorder {
  status: RecordingStatus = 'NeverStarted';
  private spec: RecordSpec = {};
  private proxyStubId?: string;
  private captured: ServeEvent[] = [];

  constructor(private readonly engine: MockEngine) {
    engine.serveListeners.add((event) => {
      if (this.status !== 'Recording') return;
      // with a target: what the recorder's proxy stub served; without (as WireMock allows): anything proxied
      if (this.proxyStubId ? event.stubMapping?.id === this.proxyStubId : event.proxiedTo !== undefined) this.captured.push(event);
    });
  }

  async start(json: unknown): Promise<void> {
    const spec = parseSpec(json, false);
    if (this.status === 'Recording') return; // WireMock ignores a second start
    let proxyStubId: string | undefined;
    if (spec.targetBaseUrl) {
      proxyStubId = randomUUID();
      const { ids: _ids, allowNonProxied: _a, ...pattern } = spec.filters ?? {};
      const hasUrl = ['url', 'urlPattern', 'urlPath', 'urlPathPattern', 'urlPathTemplate'].some((k) => k in pattern);
      const proxyStub: StubMapping = {
        id: proxyStubId,
        uuid: proxyStubId,
        name: 'mockyard-recorder-proxy',
        request: { method: 'ANY', ...(hasUrl ? {} : { urlPattern: '.*' }), ...pattern },
        response: { proxyBaseUrl: spec.targetBaseUrl },
        priority: RECORDER_PROXY_PRIORITY,
        metadata: { mockyard: { recorderProxy: true } },
      };
      await this.engine.putStub(proxyStub);
    }
    this.spec = spec;
    this.captured = [];
    this.proxyStubId = proxyStubId;
    this.status = 'Recording';
  }

  async stop(): Promise<StubMapping[]> {
    if (this.status !== 'Recording') throw new AdminError(400, [{ code: 30, title: 'Not currently recording.' }]);
    if (this.proxyStubId && this.engine.stubs.get(this.proxyStubId)) await this.engine.removeStub(this.proxyStubId);
    this.status = 'Stopped';
    const events = this.captured.filter(filterMatcher(this.spec));
    this.captured = [];
    this.proxyStubId = undefined;
    return this.install(generateStubs(events, this.spec));
  }

  async snapshot(json: unknown): Promise<{ mappings: StubMapping[] } | { ids: string[] }> {
    const spec = parseSpec(json, false);
    const matches = filterMatcher(spec);
    const allowNonProxied = spec.filters?.allowNonProxied ?? false;
    const events = this.engine.journal
      .list()
      .reverse()
      .filter((e) => e.response && (allowNonProxied || e.proxiedTo !== undefined) && matches(e))
      .filter((e) => !spec.targetBaseUrl || e.proxiedTo === undefined || e.proxiedTo.startsWith(spec.targetBaseUrl));
    const stubs = await this.install(generateStubs(events, spec));
    return spec.outputFormat === 'IDS' ? { ids: stubs.map((s) => s.id) } : { mappings: stubs };
  }

  /**
   * Adds recorded stubs, as WireMock does whether or not it persists them (`persist: false` makes them
   * in-memory stubs with inline bodies, see buildOne). An existing stub with the same request and scenario
   * step is replaced, so recording the same traffic again does not pile up duplicates.
   */
  private async install(generated: GeneratedStub[]): Promise<StubMapping[]> {
    const existing = new Map<string, string>();
    for (const stub of this.engine.allStubs()) existing.set(stepKey(stub), stub.id);
    for (const g of generated) {
      if (g.bodyFile) await this.engine.files.write(g.bodyFile.name, g.bodyFile.content);
      const duplicate = existing.get(stepKey(g.stub));
      if (duplicate) await this.engine.removeStub(duplicate);
      await this.engine.putStub(g.stub);
    }
    return generated.map((g) => g.stub);
  }
}

function stepKey(stub: StubMapping): string {
  return JSON.stringify([stub.request, stub.scenarioName ? stub.scenarioName.replace(/^scenario-\d+-/, '') : null, stub.requiredScenarioState?.replace(/^scenario-\d+-/, '') ?? null]);
}
