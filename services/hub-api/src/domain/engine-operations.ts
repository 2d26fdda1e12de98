import { z } from 'zod';
import type { ProxyStatus, StubMapping } from '@mockyard/contracts';
import type { EngineAdmin } from './engine-admin';
import { summarizeEngine, type EngineRef } from './engine-ref';
import { MappingsReplySchema, NearMissesReplySchema, RecordingStatusReplySchema, RequestsReplySchema, StubReplySchema, type MappingsReply } from './engine-replies';
import { EngineFailedError, InvalidInputError } from './hub-errors';
import { buildProxyStub, findProxyStubs, proxyTargetOf, stubIdOf } from './proxy-stub';

export interface ImportStubs {
  mappings: StubMapping[];
  importOptions?: { duplicatePolicy?: 'OVERWRITE' | 'IGNORE'; deleteAllNotInImport?: boolean };
}

/** WireMock's record options; `targetUrl` is the hub's name for `targetBaseUrl`. Unknown keys pass through. */
export type RecordingSpec = Record<string, unknown> & { targetUrl?: string; targetBaseUrl?: string };

/**
 * What the hub does on one engine, in WireMock admin API terms, so the same code drives Mockyard's
 * engine and genuine WireMock. Routes and MCP tools resolve the engine first and then call this.
 */
export class EngineOperations {
  /** The last proxy change queued per engine: enable/disable list then write, so they must not interleave. */
  private readonly proxyChanges = new Map<string, Promise<unknown>>();

  constructor(private readonly admin: EngineAdmin) {}

  // ---- stubs
  async listStubs(engine: EngineRef, page: { limit?: number; offset?: number } = {}): Promise<MappingsReply> {
    const reply = await this.admin.call(engine, { method: 'GET', path: '/mappings', query: { limit: page.limit, offset: page.offset } });
    return parseReply(engine, MappingsReplySchema, reply.body);
  }

  async getStub(engine: EngineRef, id: string): Promise<StubMapping> {
    const reply = await this.admin.call(engine, { method: 'GET', path: `/mappings/${encodeURIComponent(id)}` });
    return parseReply(engine, StubReplySchema, reply.body);
  }

  async createStub(engine: EngineRef, stub: StubMapping): Promise<StubMapping> {
    const reply = await this.admin.call(engine, { method: 'POST', path: '/mappings', body: stub });
    return parseReply(engine, StubReplySchema, reply.body);
  }

  async updateStub(engine: EngineRef, id: string, stub: StubMapping): Promise<StubMapping> {
    const reply = await this.admin.call(engine, { method: 'PUT', path: `/mappings/${encodeURIComponent(id)}`, body: { ...stub, id } });
    return parseReply(engine, StubReplySchema, reply.body);
  }

  async deleteStub(engine: EngineRef, id: string): Promise<void> {
    await this.admin.call(engine, { method: 'DELETE', path: `/mappings/${encodeURIComponent(id)}` });
  }

  async deleteAllStubs(engine: EngineRef): Promise<void> {
    await this.admin.call(engine, { method: 'DELETE', path: '/mappings' });
  }

  /**
   * WireMock's import answers 200 with no body, so what it did is counted here: with `duplicatePolicy: IGNORE`
   * a stub whose id the engine already has is not imported, and `deleteAllNotInImport` removes the engine's
   * other stubs; for those two the engine's stub ids are read first (one listing more, unless the caller has just
   * listed them: `listed`). Stubs without an id always get a new one. Import options go with both fields set
   * (WireMock's defaults for the missing one): WireMock 3.13 answers options without `deleteAllNotInImport` with a
   * 500 (a NullPointerException).
   */
  async importStubs(engine: EngineRef, input: ImportStubs, listed?: readonly Pick<StubMapping, 'id' | 'uuid'>[]): Promise<{ imported: number; ignored: number; removed: number }> {
    const options = input.importOptions ?? {};
    const before = options.duplicatePolicy === 'IGNORE' || options.deleteAllNotInImport ? new Set((listed ?? (await this.listStubs(engine)).mappings).map((s) => s.id ?? s.uuid)) : undefined;
    const body = input.importOptions ? { ...input, importOptions: { duplicatePolicy: options.duplicatePolicy ?? 'OVERWRITE', deleteAllNotInImport: options.deleteAllNotInImport ?? false } } : input;
    await this.admin.call(engine, { method: 'POST', path: '/mappings/import', body });
    if (!before) return { imported: input.mappings.length, ignored: 0, removed: 0 };
    const importedIds = new Set(input.mappings.map((m) => m.id ?? m.uuid).filter((id) => id !== undefined));
    const ignored = options.duplicatePolicy === 'IGNORE' ? [...importedIds].filter((id) => before.has(id)).length : 0;
    const removed = options.deleteAllNotInImport ? [...before].filter((id) => id !== undefined && !importedIds.has(id)).length : 0;
    return { imported: input.mappings.length - ignored, ignored, removed };
  }

  // ---- request journal
  async listRequests(engine: EngineRef, query: { limit?: number; since?: string } = {}): Promise<Record<string, unknown>> {
    const reply = await this.admin.call(engine, { method: 'GET', path: '/requests', query });
    return parseReply(engine, RequestsReplySchema, reply.body);
  }

  async clearRequests(engine: EngineRef): Promise<void> {
    await this.admin.call(engine, { method: 'DELETE', path: '/requests' });
  }

  async listUnmatched(engine: EngineRef): Promise<Record<string, unknown>> {
    const reply = await this.admin.call(engine, { method: 'GET', path: '/requests/unmatched' });
    return parseReply(engine, RequestsReplySchema, reply.body);
  }

  async listNearMisses(engine: EngineRef): Promise<Record<string, unknown>> {
    const reply = await this.admin.call(engine, { method: 'GET', path: '/requests/unmatched/near-misses' });
    return parseReply(engine, NearMissesReplySchema, reply.body);
  }

  // ---- engine-wide proxy (a catch-all stub marked in its metadata)
  async getProxy(engine: EngineRef): Promise<ProxyStatus> {
    const [stub] = findProxyStubs((await this.listStubs(engine)).mappings);
    return toProxyStatus(engine, stub);
  }

  /** Points the engine's proxy at targetUrl: replaces the proxy stub (keeping its id) or creates it. Touches no other stub. */
  enableProxy(engine: EngineRef, targetUrl: string): Promise<ProxyStatus> {
    return this.oneProxyChangeAtATime(engine, () => this.replaceProxyStub(engine, targetUrl));
  }

  disableProxy(engine: EngineRef): Promise<ProxyStatus> {
    return this.oneProxyChangeAtATime(engine, async () => {
      for (const s of findProxyStubs((await this.listStubs(engine)).mappings)) await this.deleteStubIfPresent(engine, s);
      return toProxyStatus(engine, undefined);
    });
  }

  /**
   * Runs proxy changes of one engine one after the other (in this hub process): two enables at once both saw
   * no proxy stub and both created one, leaving an engine that only dedupes them itself (not WireMock) with two.
   */
  private oneProxyChangeAtATime<T>(engine: EngineRef, change: () => Promise<T>): Promise<T> {
    const run = (this.proxyChanges.get(engine.id) ?? Promise.resolve()).catch(() => undefined).then(change);
    const settled = run.catch(() => undefined);
    this.proxyChanges.set(engine.id, settled);
    void settled.then(() => {
      if (this.proxyChanges.get(engine.id) === settled) this.proxyChanges.delete(engine.id);
    });
    return run;
  }

  private async replaceProxyStub(engine: EngineRef, targetUrl: string): Promise<ProxyStatus> {
    const existing = findProxyStubs((await this.listStubs(engine)).mappings);
    const wanted = buildProxyStub(targetUrl);
    const [first, ...extra] = existing;
    let stub: StubMapping;
    if (first && stubIdOf(first)) {
      stub = proxyTargetOf(first) === proxyTargetOf(wanted) ? first : await this.updateStub(engine, stubIdOf(first)!, wanted);
    } else {
      stub = await this.createStub(engine, wanted);
    }
    for (const s of extra) await this.deleteStubIfPresent(engine, s);
    return toProxyStatus(engine, stub);
  }

  // ---- recording
  async startRecording(engine: EngineRef, spec: RecordingSpec): Promise<{ status: string; targetUrl: string; engine: ReturnType<typeof summarizeEngine> }> {
    const { targetUrl: given, targetBaseUrl, ...options } = spec;
    const targetUrl = given ?? targetBaseUrl ?? (await this.getProxy(engine)).targetUrl;
    if (!targetUrl) throw new InvalidInputError('targetUrl is required: the engine has no proxy target to record from (enable the proxy or give targetUrl)');
    await this.admin.call(engine, { method: 'POST', path: '/recordings/start', body: { ...options, targetBaseUrl: targetUrl } });
    return { status: 'Recording', targetUrl, engine: summarizeEngine(engine) };
  }

  async stopRecording(engine: EngineRef): Promise<MappingsReply & { engine: ReturnType<typeof summarizeEngine> }> {
    const reply = await this.admin.call(engine, { method: 'POST', path: '/recordings/stop' });
    return { ...parseReply(engine, MappingsReplySchema, reply.body), engine: summarizeEngine(engine) };
  }

  async recordingStatus(engine: EngineRef): Promise<{ status: string; engine: ReturnType<typeof summarizeEngine> }> {
    const reply = await this.admin.call(engine, { method: 'GET', path: '/recordings/status' });
    return { status: parseReply(engine, RecordingStatusReplySchema, reply.body).status, engine: summarizeEngine(engine) };
  }

  async snapshot(engine: EngineRef, spec: Record<string, unknown>): Promise<MappingsReply> {
    const reply = await this.admin.call(engine, { method: 'POST', path: '/recordings/snapshot', body: spec });
    return parseReply(engine, MappingsReplySchema, reply.body);
  }

  private async deleteStubIfPresent(engine: EngineRef, stub: StubMapping) {
    const id = stubIdOf(stub);
    if (!id) return;
    try {
      await this.deleteStub(engine, id);
    } catch (err) {
      if ((err as { status?: number }).status !== 404) throw err;
    }
  }
}

function toProxyStatus(engine: EngineRef, stub: StubMapping | undefined): ProxyStatus {
  return {
    enabled: stub !== undefined,
    targetUrl: stub ? proxyTargetOf(stub) : null,
    stubId: stub ? stubIdOf(stub) : null,
    engine: summarizeEngine(engine),
  };
}

/** Engine replies are parsed where they enter; an unreadable one is the engine's failure (502). */
export function parseReply<S extends z.ZodType>(engine: EngineRef, schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new EngineFailedError(engine, `engine ${engine.id} (${engine.url}) sent an unexpected reply: ${issue ? `${issue.path.join('.') || '(body)'}: ${issue.message}` : 'unreadable body'}`);
}
