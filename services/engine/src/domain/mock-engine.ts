import {
  compileRequestPattern,
  matchRequestPattern,
  toMatchableRequest,
  validateStubMapping,
  type ContentPattern,
  type StubMapping,
} from '@mockyard/matching';
import { AdminError, toPointer } from './admin-error';
import { createDefaultSettings, type GlobalSettings } from './delays';
import type { BodyFiles, MappingLocation, MappingsRepo, TrafficSink } from './ports';
import { RequestJournal } from './request-journal';
import { ScenarioStore } from './scenario-store';
import type { ServeEvent } from './serve-event';
import { StubStore, type StoredStub } from './stub-store';

export interface MockEngineOptions {
  mappings: MappingsRepo;
  files: BodyFiles;
  traffic: TrafficSink;
  journalMaxEntries: number;
  isJournalEnabled: boolean;
  isGlobalTemplating: boolean;
  /** Called for problems nobody waits for (a stub file that does not parse, a failed file write). */
  onWarning?: (message: string, data: Record<string, unknown>) => void;
}

export interface ImportOptions {
  duplicatePolicy?: 'OVERWRITE' | 'IGNORE';
  deleteAllNotInImport?: boolean;
}

/** Parses a stub mapping or throws WireMock's 422 with every problem found. */
export function parseStub(json: unknown, pointer = ''): StubMapping {
  const result = validateStubMapping(json);
  if (!result.ok) throw AdminError.invalidEntity(result.errors, pointer);
  return result.stub;
}


/**
 * The state of one mock engine (stubs, scenarios, journal, settings) and the operations of its admin API on
 * stubs. Serving lives in serve/, recording in recorder.ts; both work on this object.
 */
export class MockEngine {
  readonly stubs = new StubStore();
  readonly scenarios = new ScenarioStore();
  readonly journal: RequestJournal;
  settings: GlobalSettings = createDefaultSettings();
  /** Called with every serve event once its response is finished (journal, traffic stream, recorder). */
  readonly serveListeners = new Set<(event: ServeEvent) => void>();
  /** Where each stub that is on disk is (loaded from it or persisted to it). */
  private readonly stubFiles = new Map<string, MappingLocation>();
  /** The last change to the mappings folder (onDisk). */
  private diskChanges: Promise<unknown> = Promise.resolve();

  constructor(readonly options: MockEngineOptions) {
    this.journal = new RequestJournal(options.journalMaxEntries, options.isJournalEnabled);
  }

  get files() {
    return this.options.files;
  }

  get traffic() {
    return this.options.traffic;
  }

  /** Replaces every stub with what the mappings folder holds (start-up; the resets below also clear state). */
  loadFromDisk(): Promise<number> {
    return this.onDisk(() => this.replaceWithDisk());
  }

  private async replaceWithDisk(): Promise<number> {
    const loaded: { stub: StubMapping; at: MappingLocation }[] = [];
    for (const { at, json } of await this.options.mappings.loadAll()) {
      const result = validateStubMapping(json);
      if (result.ok) loaded.push({ stub: result.stub, at });
      else this.options.onWarning?.('stub file skipped', { ...at, errors: result.errors });
    }
    this.stubs.clear();
    this.stubFiles.clear();
    for (const { stub, at } of loaded) {
      this.stubs.put(stub);
      this.stubFiles.set(stub.id, at);
    }
    this.scenarios.prune(this.allStubs());
    return loaded.length;
  }

  allStubs(): StubMapping[] {
    return this.stubs.list().map((s) => s.stub);
  }

  getStub(id: string): StubMapping {
    const stored = this.stubs.get(id);
    if (!stored) throw AdminError.notFound(`No stub mapping with id ${id}`);
    return stored.stub;
  }

  /** POST /mappings: adds a stub (422 code 109 when its id is taken, as WireMock); persistent stubs are written at once. */
  async createStub(json: unknown): Promise<StubMapping> {
    const stub = parseStub(json);
    if (this.stubs.get(stub.id)) {
      throw new AdminError(422, [
        { code: 109, title: 'Duplicate stub mapping ID', detail: `ID of the provided stub mapping '${stub.id}' is already taken by another stub mapping` },
      ]);
    }
    return this.putStub(stub);
  }

  /** Adds or replaces a stub; when writing a persistent one fails, the previous state is put back. */
  async putStub(stub: StubMapping): Promise<StubMapping> {
    const previous = this.stubs.get(stub.id)?.stub;
    const stored = this.stubs.put(stub);
    if (stub.persistent) {
      try {
        await this.persist(stored);
      } catch (err) {
        if (previous) this.stubs.put(previous);
        else this.stubs.remove(stub.id);
        throw err;
      }
    }
    return stored.stub;
  }

  /** PUT /mappings/{id}: replaces a known stub; the id in the path wins over the body's. */
  async updateStub(id: string, json: unknown): Promise<StubMapping> {
    if (!this.stubs.get(id)) throw AdminError.notFound(`No stub mapping with id ${id}`);
    // An array is refused by parseStub below; spreading it would make an empty (match-everything) stub.
    const body = json && typeof json === 'object' && !Array.isArray(json) ? { ...(json as object), id, uuid: id } : json;
    const stub = parseStub(body);
    return this.putStub(stub);
  }

  async removeStub(id: string): Promise<StubMapping> {
    const removed = this.stubs.remove(id);
    if (!removed) throw AdminError.notFound(`No stub mapping with id ${id}`);
    await this.forgetFile(id);
    this.scenarios.prune(this.allStubs());
    return removed.stub;
  }

  /** DELETE /mappings: removes every stub and, like WireMock, the files of the ones on disk. */
  async removeAllStubs(): Promise<void> {
    const ids = [...this.stubFiles.keys()];
    this.stubs.clear();
    for (const id of ids) await this.forgetFile(id);
    this.scenarios.reset();
  }

  /** POST /mappings/save: writes every stub to the mappings folder. */
  async saveAll(): Promise<number> {
    const all = this.stubs.list();
    for (const stored of all) await this.persist(stored);
    return all.length;
  }

  /** POST /mappings/import: validates all first, then merges (nothing changes when one is invalid). */
  async importStubs(json: unknown): Promise<{ imported: number; ignored: number; removed: number }> {
    const body = json as { mappings?: unknown; importOptions?: ImportOptions } | null;
    if (!body || typeof body !== 'object' || !Array.isArray(body.mappings)) {
      throw AdminError.invalidEntity([{ path: '/mappings', message: 'mappings must be an array of stub mappings' }]);
    }
    const options = body.importOptions ?? {};
    if (options.duplicatePolicy !== undefined && !['OVERWRITE', 'IGNORE'].includes(options.duplicatePolicy)) {
      throw AdminError.invalidEntity([{ path: '/importOptions/duplicatePolicy', message: 'duplicatePolicy must be OVERWRITE or IGNORE' }]);
    }
    const errors: { path: string; message: string }[] = [];
    const parsed: StubMapping[] = [];
    body.mappings.forEach((item, i) => {
      const result = validateStubMapping(item);
      if (result.ok) parsed.push(result.stub);
      else errors.push(...result.errors.map((e) => ({ path: `/mappings/${i}${toPointer(e.path)}`, message: e.message })));
    });
    if (errors.length) throw AdminError.invalidEntity(errors);
    const importedIds = new Set(parsed.map((s) => s.id));
    let removed = 0;
    if (options.deleteAllNotInImport) {
      for (const stored of this.stubs.list()) {
        if (!importedIds.has(stored.stub.id)) {
          this.stubs.remove(stored.stub.id);
          await this.forgetFile(stored.stub.id);
          removed++;
        }
      }
    }
    let imported = 0;
    let ignored = 0;
    // WireMock imports in reverse so the first stub of the file ends up newest (it wins a tie).
    for (const stub of [...parsed].reverse()) {
      if (this.stubs.get(stub.id) && options.duplicatePolicy === 'IGNORE') {
        ignored++;
        continue;
      }
      await this.putStub(stub);
      imported++;
    }
    this.scenarios.prune(this.allStubs());
    return { imported, ignored, removed };
  }

  /** Stubs whose metadata matches a WireMock content pattern (e.g. matchesJsonPath). */
  findByMetadata(pattern: unknown): StubMapping[] {
    const matches = compileMetadataMatcher(pattern);
    return this.allStubs().filter((s) => matches(s.metadata));
  }

  async removeByMetadata(pattern: unknown): Promise<StubMapping[]> {
    const found = this.findByMetadata(pattern);
    for (const stub of found) {
      this.stubs.remove(stub.id);
      await this.forgetFile(stub.id);
    }
    this.scenarios.prune(this.allStubs());
    return found;
  }

  /**
   * WireMock's resetToDefaultMappings, behind both `POST /__admin/mappings/reset` and `POST /__admin/reset`
   * (WireMock's resetAll is the same call): stubs replaced by what the mappings folder holds, every scenario
   * back to "Started", the request journal cleared. The folder is read first, so a failing read changes nothing.
   */
  async resetToDefaultMappings(): Promise<void> {
    await this.loadFromDisk();
    this.journal.clear();
    this.scenarios.reset();
  }

  private persist(stored: StoredStub): Promise<void> {
    return this.onDisk(async () => {
      const at = await this.options.mappings.save(stored.stub, this.stubFiles.get(stored.stub.id));
      this.stubFiles.set(stored.stub.id, at);
    });
  }

  private forgetFile(id: string): Promise<void> {
    return this.onDisk(async () => {
      const at = this.stubFiles.get(id);
      if (!at) return;
      this.stubFiles.delete(id);
      const removedIndex = await this.options.mappings.remove(at, id);
      if (removedIndex === undefined) return;
      // the entries after it in that file moved up one place
      for (const [otherId, other] of this.stubFiles) {
        if (other.file === at.file && other.index !== undefined && other.index > removedIndex) this.stubFiles.set(otherId, { file: other.file, index: other.index - 1 });
      }
    });
  }

  /**
   * Runs one change to the mappings folder after the ones before it. Each reads a file, changes it and writes it
   * back, and an entry of a multi-stub file is found by a position the changes before it move: two at once (two
   * admin clients deleting) would lose one change or hit the wrong entry.
   */
  private onDisk<T>(change: () => Promise<T>): Promise<T> {
    const next = this.diskChanges.then(change, change);
    this.diskChanges = next.catch(() => undefined);
    return next;
  }
}

/** Builds a metadata predicate from a content pattern by matching it against the metadata as a JSON body. */
export function compileMetadataMatcher(pattern: unknown): (metadata: Record<string, unknown> | undefined) => boolean {
  if (!pattern || typeof pattern !== 'object' || Array.isArray(pattern)) {
    throw AdminError.invalidEntity([{ path: '/', message: 'expected a content pattern object such as {"matchesJsonPath": "$.tag"}' }]);
  }
  let compiled: ReturnType<typeof compileRequestPattern>;
  try {
    compiled = compileRequestPattern({ method: 'ANY', bodyPatterns: [pattern as ContentPattern] });
  } catch (err) {
    throw AdminError.invalidEntity([{ path: '/', message: (err as Error).message }]);
  }
  return (metadata) => {
    if (!metadata) return false;
    const request = toMatchableRequest({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, body: JSON.stringify(metadata) });
    return matchRequestPattern(compiled, request).isExactMatch;
  };
}
