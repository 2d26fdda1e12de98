import type { TrafficPublisherCounters } from '@mockyard/bus';

/** The capture counters of every worker as one: counts and gauges add up; the breaker is the worst one. */
export function sumCounters(all: readonly TrafficPublisherCounters[]): TrafficPublisherCounters {
  const total: TrafficPublisherCounters = { published: 0, spooled: 0, replayed: 0, dropped: 0, buffered: 0, spoolPendingBytes: 0, breaker: 'closed' };
  for (const c of all) {
    total.published += c.published;
    total.spooled += c.spooled;
    total.replayed += c.replayed;
    total.dropped += c.dropped;
    total.buffered += c.buffered;
    total.spoolPendingBytes += c.spoolPendingBytes;
    if (c.breaker === 'open' || (c.breaker === 'halfOpen' && total.breaker === 'closed')) total.breaker = c.breaker;
  }
  return total;
}
