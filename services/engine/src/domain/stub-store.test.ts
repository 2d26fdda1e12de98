import type { StubMapping } from '@mockyard/matching';
import { StubStore } from './stub-store';

let n = 0;
function stub(request: StubMapping['request'], priority?: number): StubMapping {
  const id = `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
  return { id, uuid: id, request, response: { status: 200 }, ...(priority ? { priority } : {}) };
}

function visitOrder(store: StubStore, path: string): string[] {
  const seen: string[] = [];
  store.findFirst([path], (s) => {
    seen.push(s.stub.id);
    return false;
  });
  return seen;
}

describe('StubStore', () => {
  it('indexes exact paths so a lookup visits only that path and the non-indexed stubs', () => {
    const store = new StubStore();
    const others = Array.from({ length: 1000 }, (_, i) => store.put(stub({ method: 'GET', urlPath: `/other/${i}` })));
    const target = store.put(stub({ method: 'GET', urlPath: '/target' }));
    const regex = store.put(stub({ urlPathPattern: '/t.*' }));
    expect(others).toHaveLength(1000);
    expect(visitOrder(store, '/target')).toEqual([regex.stub.id, target.stub.id]);
  });

  it.each([
    ['priority first', [{ p: 5 }, { p: 1 }, { p: 3 }], [1, 2, 0]],
    ['newest first at equal priority', [{ p: 5 }, { p: 5 }, { p: 5 }], [2, 1, 0]],
    ['mixed', [{ p: 2 }, { p: 5 }, { p: 2 }], [2, 0, 1]],
  ])('visits candidates in selection order: %s', (_name, specs, expectedOrder) => {
    const store = new StubStore();
    // alternate indexed and non-indexed stubs so the merge is exercised
    const ids = specs.map((s, i) => store.put(stub(i % 2 ? { urlPathPattern: '/a' } : { urlPath: '/a' }, s.p)).stub.id);
    expect(visitOrder(store, '/a')).toEqual(expectedOrder.map((i) => ids[i]));
  });

  it('keeps the insertion index of a replaced stub and removes stubs from the index', () => {
    const store = new StubStore();
    const first = store.put(stub({ urlPath: '/x' }));
    store.put(stub({ urlPath: '/x' }));
    const replaced = store.put({ ...first.stub, request: { urlPath: '/x' }, response: { status: 201 } });
    expect(replaced.insertionIndex).toBe(first.insertionIndex);
    expect(store.size).toBe(2);
    store.remove(first.stub.id);
    expect(visitOrder(store, '/x')).toHaveLength(1);
    expect(store.get(first.stub.id)).toBeUndefined();
  });
});
