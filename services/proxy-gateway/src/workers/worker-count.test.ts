import { MAX_AUTO_WORKERS, resolveWorkerCount } from './worker-count';

describe('resolveWorkerCount', () => {
  it.each([
    ['auto', 1, 1],
    ['auto', 2, 2],
    ['auto', 64, MAX_AUTO_WORKERS],
    ['auto', 0, 1],
    [1, 16, 1],
    [8, 2, 8],
  ] as const)('%s on %i CPUs → %i', (setting, cpus, expected) => {
    expect(resolveWorkerCount(setting, cpus)).toBe(expected);
  });
});
