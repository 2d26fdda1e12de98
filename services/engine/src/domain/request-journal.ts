import type { ServeEvent } from './serve-event';

/**
 * The request journal: serve events in arrival order, bounded to `maxEntries` (oldest dropped first).
 * WireMock's journal is unbounded by default; ours is not, so a long-running engine does not grow forever.
 */
export class RequestJournal {
  private readonly events = new Map<string, ServeEvent>();

  constructor(
    readonly maxEntries: number,
    readonly isEnabled = true,
  ) {}

  add(event: ServeEvent) {
    if (!this.isEnabled) return;
    this.events.set(event.id, event);
    if (this.events.size > this.maxEntries) {
      const oldest = this.events.keys().next().value;
      if (oldest !== undefined) this.events.delete(oldest);
    }
  }

  get size() {
    return this.events.size;
  }

  get(id: string) {
    return this.events.get(id);
  }

  remove(id: string): boolean {
    return this.events.delete(id);
  }

  clear() {
    this.events.clear();
  }

  /** Newest first, optionally only events logged after `sinceMs`, at most `limit`. */
  list(options: { limit?: number; sinceMs?: number } = {}): ServeEvent[] {
    const all = [...this.events.values()].reverse();
    const filtered = options.sinceMs === undefined ? all : all.filter((e) => e.loggedDate > options.sinceMs!);
    return options.limit === undefined ? filtered : filtered.slice(0, options.limit);
  }
}
