import type { TrafficPublisherCounters } from '@mockyard/bus';
import { sumCounters } from './sum-counters';

const counters = (overrides: Partial<TrafficPublisherCounters>): TrafficPublisherCounters => ({
  published: 0,
  spooled: 0,
  replayed: 0,
  dropped: 0,
  buffered: 0,
  spoolPendingBytes: 0,
  breaker: 'closed',
  ...overrides,
});

describe('sumCounters', () => {
  it('adds every count and gauge', () => {
    expect(sumCounters([counters({ published: 3, spooled: 1, replayed: 1, buffered: 2, spoolPendingBytes: 100 }), counters({ published: 4, dropped: 2, spoolPendingBytes: 50 })])).toEqual(
      counters({ published: 7, spooled: 1, replayed: 1, dropped: 2, buffered: 2, spoolPendingBytes: 150 }),
    );
  });

  it.each([
    [['closed', 'closed'], 'closed'],
    [['closed', 'halfOpen'], 'halfOpen'],
    [['open', 'halfOpen'], 'open'],
    [['halfOpen', 'open', 'closed'], 'open'],
  ] as const)('reports breakers %j as %s', (breakers, expected) => {
    expect(sumCounters(breakers.map((breaker) => counters({ breaker }))).breaker).toBe(expected);
  });

  it('is all zeros for no workers', () => {
    expect(sumCounters([])).toEqual(counters({}));
  });
});
