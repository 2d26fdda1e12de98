import { connectTimeoutMs, DEFAULT_CONNECT_TIMEOUT_MS } from './create-db-client';

describe('connectTimeoutMs (libpq connect_timeout)', () => {
  it.each([
    ['absent: pgjdbc\'s 10 s', 'postgresql://h/db', DEFAULT_CONNECT_TIMEOUT_MS],
    ['whole seconds', 'postgresql://h/db?connect_timeout=3', 3000],
    ['0: none', 'postgresql://h/db?sslmode=require&connect_timeout=0', 0],
    ['negative: none, as libpq', 'postgresql://h/db?connect_timeout=-1', 0],
    ['1 reads as libpq\'s minimum of 2', 'postgresql://h/db?connect_timeout=1', 2000],
  ])('%s', (_name, url, expected) => {
    expect(connectTimeoutMs(url)).toBe(expected);
  });

  it.each(['2.5', '5s', ''])('refuses connect_timeout=%j, naming the parameter', (value) => {
    expect(() => connectTimeoutMs(`postgresql://h/db?connect_timeout=${value}`)).toThrow(/connect_timeout must be a whole number of seconds/);
  });
});
