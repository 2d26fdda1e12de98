import { parseDurationMs } from './parse-duration-ms';

describe('parseDurationMs', () => {
  it.each([
    ['7d', 604_800_000],
    ['12h', 43_200_000],
    ['30m', 1_800_000],
    ['45s', 45_000],
    ['500ms', 500],
    ['1500', 1500],
    ['1.5h', 5_400_000],
    [' 2W ', 1_209_600_000],
    ['0', 0],
    ['off', 0],
  ])('reads %s as %d ms', (raw, ms) => {
    expect(parseDurationMs(raw)).toBe(ms);
  });

  it.each(['', 'soon', '-1d', '7 days', '1e3'])('rejects %j', (raw) => {
    expect(parseDurationMs(raw)).toBeUndefined();
  });
});
