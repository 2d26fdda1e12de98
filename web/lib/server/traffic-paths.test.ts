import { isTrafficApiPath } from './traffic-paths';

describe('traffic API paths the forwarder passes', () => {
  it.each([[['requests']], [['responses']], [['stream']], [['exchanges']], [['exchanges', 'har']], [['exchanges', '0193-ab/c']]])('passes %j', (path) => {
    expect(isTrafficApiPath(path)).toBe(true);
  });

  it.each([
    [[]], [['admin']], [['requests', 'x']], [['stream', 'x']], [['exchanges', 'a', 'b']],
    [['exchanges', '..']], [['exchanges', '.']], [['exchanges', '']], [['..', 'hub', 'admin']], [['Requests']],
  ])('refuses %j', (path) => {
    expect(isTrafficApiPath(path)).toBe(false);
  });
});
