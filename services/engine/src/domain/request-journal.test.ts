import type { ServeEvent } from './serve-event';
import { RequestJournal } from './request-journal';

const event = (id: string, loggedDate = 0) => ({ id, loggedDate }) as ServeEvent;
const ids = (events: ServeEvent[]) => events.map((e) => e.id);

describe('RequestJournal', () => {
  it.each([
    [3, ['a'], ['a']],
    [3, ['a', 'b', 'c'], ['c', 'b', 'a']],
    [3, ['a', 'b', 'c', 'd', 'e'], ['e', 'd', 'c']],
    [1, ['a', 'b'], ['b']],
  ])('with room for %d keeps the newest of %j, newest first', (max, added, expected) => {
    const journal = new RequestJournal(max);
    for (const id of added) journal.add(event(id));
    expect(ids(journal.list())).toEqual(expected);
    expect(journal.size).toBe(expected.length);
  });

  it('finds, removes and clears by id, and filters by limit and since', () => {
    const journal = new RequestJournal(10);
    ['a', 'b', 'c', 'd'].forEach((id, i) => journal.add(event(id, i * 10)));
    expect(journal.get('b')?.id).toBe('b');
    expect(journal.remove('b')).toBe(true);
    expect(journal.remove('b')).toBe(false);
    expect(ids(journal.list())).toEqual(['d', 'c', 'a']);
    expect(ids(journal.list({ limit: 2 }))).toEqual(['d', 'c']);
    expect(ids(journal.list({ sinceMs: 10 }))).toEqual(['d', 'c']);
    journal.clear();
    expect(journal.size).toBe(0);
    journal.add(event('z'));
    expect(ids(journal.list())).toEqual(['z']);
  });

  it('stores nothing when disabled', () => {
    const journal = new RequestJournal(10, false);
    journal.add(event('a'));
    expect(journal.list()).toEqual([]);
  });
});
