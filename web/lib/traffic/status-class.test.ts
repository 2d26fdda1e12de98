import { classifyStatus, formatBytes, formatDuration } from './status-class';

describe('status colour class', () => {
  it.each([
    [101, null, 'info'],
    [200, null, 'success'],
    [204, null, 'success'],
    [301, null, 'redirect'],
    [404, null, 'client-error'],
    [499, null, 'client-error'],
    [500, null, 'server-error'],
    [null, null, 'pending'],
    [null, 'upstream unreachable', 'server-error'],
  ] as const)('classifies %s (error %s) as %s', (status, error, expected) => {
    expect(classifyStatus(status, error)).toBe(expected);
  });

  it.each([
    [null, '—'], [0, '0 B'], [1023, '1023 B'], [1536, '1.5 kB'], [3 * 1024 * 1024, '3.0 MB'],
  ])('formats %s bytes as %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it.each([[null, '—'], [0.4, '<1 ms'], [12.6, '13 ms'], [1500, '1.50 s']])('formats %s ms as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
