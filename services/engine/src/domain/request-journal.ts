import type { ServeEvent } from './serve-event';

/**
 * The request journal: serve events in arrival order, bounded to `maxEntries` (oldest overwritten first).
 * WireMock's journal is unbounded by default; ours is not, so a long-running engine does not grow forever.
 * A ring of slots keeps `add` (the only call on the serving path) to one array write; lookups by id scan
 * the ring, which only admin calls do.
 */
export class RequestJournal {
  private readonly slots: (ServeEvent | undefined)[];
  /** Events ever added; the newest sits at (added - 1) % maxEntries. */
  private added = 0;

  constructor(
    readonly maxEntries: number,
    readonly isEnabled = true,
  ) {
    this.slots = new Array(isEnabled ? maxEntries : 0);
  }

  add(event: ServeEvent) {
    if (!this.isEnabled) return;
    this.slots[this.added % this.maxEntries] = event;
    this.added++;
  }

  /** Newest first. */
  private *newestFirst(): Generator<ServeEvent> {
    const count = Math.min(this.added, this.maxEntries);
    for (let i = 1; i <= count; i++) {
      const event = this.slots[(this.added - i) % this.maxEntries];
      if (event) yield event;
    }
  }

  get size() {
    let n = 0;
    for (const _ of this.newestFirst()) n++;
    return n;
  }

  get(id: string): ServeEvent | undefined {
    for (const event of this.newestFirst()) if (event.id === id) return event;
    return undefined;
  }

  remove(id: string): boolean {
    const count = Math.min(this.added, this.maxEntries);
    for (let i = 1; i <= count; i++) {
      const at = (this.added - i) % this.maxEntries;
      if (this.slots[at]?.id === id) {
        this.slots[at] = undefined;
        return true;
      }
    }
    return false;
  }

  clear() {
    this.slots.fill(undefined);
    this.added = 0;
  }

  /** Newest first, optionally only events logged after `sinceMs`, at most `limit`. */
  list(options: { limit?: number; sinceMs?: number } = {}): ServeEvent[] {
    const out: ServeEvent[] = [];
    for (const event of this.newestFirst()) {
      if (options.limit !== undefined && out.length >= options.limit) break;
      if (options.sinceMs === undefined || event.loggedDate > options.sinceMs) out.push(event);
    }
    return out;
  }
}
