import { compileRequestPattern, exactPathKey, type StubMapping } from '@mockyard/matching';

/** WireMock's default priority; 1 is the highest. */
export const DEFAULT_PRIORITY = 5;

export type CompiledPattern = ReturnType<typeof compileRequestPattern>;

/** A stub as the store keeps it: the mapping plus what selection needs precomputed. */
export interface StoredStub {
  stub: StubMapping;
  compiled: CompiledPattern;
  priority: number;
  insertionIndex: number;
  /** Exact path this stub is indexed under, when its URL is an exact path. */
  indexedPath: string | null;
  /** Cache slot for the serve path (precomputed static response); cleared when the stub changes. */
  cache?: unknown;
}

/** Selection order: priority ascending (1 first), then newest first. */
export function compareStubs(a: StoredStub, b: StoredStub): number {
  return a.priority - b.priority || b.insertionIndex - a.insertionIndex;
}

function insertSorted(list: StoredStub[], item: StoredStub) {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareStubs(list[mid], item) <= 0) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, item);
}

/**
 * The stub mappings of one engine. Stubs whose URL is an exact path live in a Map keyed by that path,
 * the rest in one list; both are kept in selection order so the first exact match wins without a sort.
 */
export class StubStore {
  private readonly byId = new Map<string, StoredStub>();
  private readonly byPath = new Map<string, StoredStub[]>();
  private readonly others: StoredStub[] = [];
  private nextInsertionIndex = 0;
  /** Bumped on every change; lets callers cache derived views. */
  version = 0;

  get size() {
    return this.byId.size;
  }

  /** Adds or replaces (same id) a validated stub. A replaced stub keeps its insertion index. */
  put(stub: StubMapping): StoredStub {
    const previous = this.byId.get(stub.id);
    if (previous) this.unlink(previous);
    const insertionIndex = previous ? previous.insertionIndex : this.nextInsertionIndex++;
    const key = exactPathKey(stub.request);
    const stored: StoredStub = {
      stub: { ...stub, insertionIndex },
      compiled: compileRequestPattern(stub.request),
      priority: stub.priority ?? DEFAULT_PRIORITY,
      insertionIndex,
      indexedPath: key ? key.path : null,
    };
    this.byId.set(stub.id, stored);
    if (stored.indexedPath !== null) {
      let bucket = this.byPath.get(stored.indexedPath);
      if (!bucket) this.byPath.set(stored.indexedPath, (bucket = []));
      insertSorted(bucket, stored);
    } else {
      insertSorted(this.others, stored);
    }
    this.version++;
    return stored;
  }

  get(id: string): StoredStub | undefined {
    return this.byId.get(id);
  }

  remove(id: string): StoredStub | undefined {
    const stored = this.byId.get(id);
    if (!stored) return undefined;
    this.unlink(stored);
    this.byId.delete(id);
    this.version++;
    return stored;
  }

  clear() {
    this.byId.clear();
    this.byPath.clear();
    this.others.length = 0;
    this.version++;
  }

  /** Every stub in selection order. */
  list(): StoredStub[] {
    return [...this.byId.values()].sort(compareStubs);
  }

  /**
   * Calls `visit` with the candidates for a request path in selection order (exact-path bucket merged
   * with the non-indexed list) until it returns true; returns that stub.
   */
  findFirst(paths: readonly string[], visit: (s: StoredStub) => boolean): StoredStub | undefined {
    let bucket = this.byPath.get(paths[0]);
    if (paths.length > 1 && paths[1] !== paths[0]) {
      const extra = this.byPath.get(paths[1]);
      if (extra) bucket = bucket ? [...bucket, ...extra].sort(compareStubs) : extra;
    }
    const others = this.others;
    if (!bucket) {
      for (let i = 0; i < others.length; i++) if (visit(others[i])) return others[i];
      return undefined;
    }
    let i = 0;
    let j = 0;
    while (i < bucket.length || j < others.length) {
      const next = j >= others.length || (i < bucket.length && compareStubs(bucket[i], others[j]) <= 0) ? bucket[i++] : others[j++];
      if (visit(next)) return next;
    }
    return undefined;
  }

  private unlink(stored: StoredStub) {
    if (stored.indexedPath !== null) {
      const bucket = this.byPath.get(stored.indexedPath);
      if (bucket) {
        const at = bucket.indexOf(stored);
        if (at >= 0) bucket.splice(at, 1);
        if (bucket.length === 0) this.byPath.delete(stored.indexedPath);
      }
    } else {
      const at = this.others.indexOf(stored);
      if (at >= 0) this.others.splice(at, 1);
    }
  }
}
