import type { Logger } from '@mockyard/service-kit';
import type { StoredExchange } from '../domain/stored-exchange';

export type TailListener = (rows: StoredExchange[]) => void;

export interface TailSource {
  listAfterSeq(afterSeq: number, limit: number): Promise<StoredExchange[]>;
  maxSeq(): Promise<number>;
}

export interface ExchangeTailOptions {
  source: TailSource;
  logger: Logger;
  /** Fallback poll while someone listens (announcements make it immediate). */
  pollMs: number;
  batchSize?: number;
}

/**
 * Follows the exchanges table by seq for this instance's live-feed clients: one query per wake-up
 * however many clients listen. Woken at once by local commits and by other instances' announcements
 * (Redis pub/sub), and by a slow poll in case an announcement was lost. Only runs while someone listens.
 */
export class ExchangeTail {
  private readonly listeners = new Set<TailListener>();
  private lastSeq: number | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: ExchangeTailOptions) {}

  /** Adds a listener; resolves to the seq after which it will receive every stored row. */
  async subscribe(listener: TailListener): Promise<{ fromSeq: number; unsubscribe: () => void }> {
    if (this.lastSeq === undefined) {
      const max = await this.options.source.maxSeq();
      this.lastSeq ??= max;
    }
    this.listeners.add(listener);
    this.schedulePoll();
    return {
      fromSeq: this.lastSeq,
      unsubscribe: () => {
        this.listeners.delete(listener);
        if (this.listeners.size === 0) {
          clearTimeout(this.timer);
          this.timer = undefined;
          this.lastSeq = undefined;
        }
      },
    };
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  /** New rows may exist: fetch them now (coalesces concurrent pokes). */
  poke(): void {
    if (this.stopped || this.listeners.size === 0) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.poke();
      }
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.listeners.clear();
    await this.running;
  }

  private schedulePoll(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => this.poke(), this.options.pollMs);
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    const limit = this.options.batchSize ?? 500;
    try {
      for (;;) {
        if (this.lastSeq === undefined || this.listeners.size === 0) return;
        const from = this.lastSeq;
        const rows = await this.options.source.listAfterSeq(from, limit);
        if (rows.length === 0 || this.lastSeq !== from) return;
        this.lastSeq = rows[rows.length - 1].seq;
        for (const listener of [...this.listeners]) {
          try {
            listener(rows);
          } catch (err) {
            this.options.logger.warn({ err: (err as Error).message }, 'live feed listener failed');
          }
        }
        if (rows.length < limit) return;
      }
    } catch (err) {
      this.options.logger.warn({ err: (err as Error).message }, 'live feed poll failed; retrying on the next wake-up');
    }
  }
}
