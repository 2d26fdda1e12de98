import { failureReason } from './webhook.sender';

describe('failureReason (what a failed webhook logs)', () => {
  it('names the connection error undici wraps in "fetch failed"', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4000'), { code: 'ECONNREFUSED' });
    expect(failureReason(new TypeError('fetch failed', { cause }))).toBe('connect ECONNREFUSED 127.0.0.1:4000');
  });

  it('lists every address tried when all of a name\'s addresses failed (an AggregateError has no message of its own)', () => {
    const cause = Object.assign(new AggregateError([new Error('connect ECONNREFUSED 127.0.0.1:4000'), new Error('connect ECONNREFUSED ::1:4000')], ''), { code: 'ECONNREFUSED' });
    expect(failureReason(new TypeError('fetch failed', { cause }))).toBe('connect ECONNREFUSED 127.0.0.1:4000; connect ECONNREFUSED ::1:4000');
  });

  it('falls back to the code, then to the error itself', () => {
    expect(failureReason(new TypeError('fetch failed', { cause: Object.assign(new Error(''), { code: 'UND_ERR_SOCKET' }) }))).toBe('UND_ERR_SOCKET');
    expect(failureReason(new Error('Invalid URL'))).toBe('Invalid URL');
  });
});
