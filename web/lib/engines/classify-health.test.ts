import { classifyHealth } from './classify-health';

describe('engine health colours', () => {
  it.each([
    ['UP', 'up'],
    ['DOWN', 'down'],
    ['OFFLINE', 'down'],
    ['offline', 'down'],
    ['UNKNOWN', 'unknown'],
    ['', 'unknown'],
  ])('shows %j as %s', (health, expected) => {
    expect(classifyHealth(health)).toBe(expected);
  });
});
