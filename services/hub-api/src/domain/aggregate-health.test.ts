import { aggregateHealth, httpStatusOf, type HealthStatus } from './aggregate-health';

describe('aggregateHealth', () => {
  it.each<[string, HealthStatus[], HealthStatus, number]>([
    ['all up', ['UP', 'UP', 'UP'], 'UP', 200],
    ['one down', ['UP', 'DOWN', 'UP'], 'DOWN', 503],
    ['unknown beside up', ['UP', 'UNKNOWN'], 'UP', 200],
    ['only unknown', ['UNKNOWN'], 'UNKNOWN', 200],
    ['nothing', [], 'UNKNOWN', 200],
  ])('%s', (_name, statuses, expected, http) => {
    const components = Object.fromEntries(statuses.map((status, i) => [`c${i}`, { status }]));
    expect(aggregateHealth(components)).toBe(expected);
    expect(httpStatusOf(aggregateHealth(components))).toBe(http);
  });
});
