import { eventIdOf, mayHaveReachedRedis } from './traffic-publisher-dedupe';

describe('eventIdOf', () => {
  it.each([
    ['{"id":"6c1b4bb4-9d1e-4a43-9b1e-0f2a4f0b8c11","source":"proxy"}', '6c1b4bb4-9d1e-4a43-9b1e-0f2a4f0b8c11'],
    ['{"source":"engine","id":"abc"}', 'abc'],
    ['{"request":{"headers":{"x":"\\"id\\":\\"fake\\""}}}', undefined],
    ['not json', undefined],
  ])('reads the id of %s', (line, id) => {
    expect(eventIdOf(line)).toBe(id);
  });
});

describe('mayHaveReachedRedis', () => {
  it.each([
    [Object.assign(new Error('Breaker is open'), { code: 'EOPENBREAKER' }), false],
    [new Error("Stream isn't writeable and enableOfflineQueue options is false"), false],
    [new Error('Connection is closed.'), true],
    [Object.assign(new Error('Timed out after 3000ms'), { code: 'ETIMEDOUT' }), true],
    [new Error('LOADING Redis is loading the dataset in memory'), true],
  ])('%s → %s', (err, expected) => {
    expect(mayHaveReachedRedis(err)).toBe(expected);
  });
});
