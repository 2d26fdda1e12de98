import { isSameEngineUrl, normalizeEngineUrl } from './normalize-engine-url';

describe('normalizeEngineUrl', () => {
  it.each([
    ['http://127.0.0.1:9090', 'http://127.0.0.1:9090'],
    ['http://127.0.0.1:9090/', 'http://127.0.0.1:9090'],
    ['HTTP://Engine.Example:9090//', 'http://engine.example:9090'],
    ['http://engine:80/', 'http://engine'],
    ['https://engine:443/mocks/a/', 'https://engine/mocks/a'],
    ['https://engine:8443/mocks?x=1#top', 'https://engine:8443/mocks'],
  ])('%s -> %s', (raw, expected) => {
    expect(normalizeEngineUrl(raw)).toBe(expected);
  });
});

describe('isSameEngineUrl', () => {
  it.each([
    ['http://127.0.0.1:9090', 'http://127.0.0.1:9090', true],
    ['http://localhost:9090', 'http://127.0.0.1:9090', true],
    ['http://[::1]:9090/mocks', 'http://localhost:9090/mocks', true],
    ['http://localhost:9091', 'http://127.0.0.1:9090', false],
    ['https://localhost:9090', 'http://127.0.0.1:9090', false],
    ['http://localhost:9090/a', 'http://127.0.0.1:9090', false],
    ['http://engine:9090', 'http://127.0.0.1:9090', false],
  ])('%s and %s: %s', (a, b, same) => {
    expect(isSameEngineUrl(normalizeEngineUrl(a), normalizeEngineUrl(b))).toBe(same);
  });
});
