import { problemTypes } from '@mockyard/contracts';
import { toHttpProblem } from './create-service-app';
import { HttpProblem } from './http-problem';

describe('toHttpProblem maps thrown values to RFC 9457 problems', () => {
  it.each([
    [{ type: 'entity.parse.failed', message: 'Unexpected token' }, 400, problemTypes.validation, /Malformed JSON body/],
    [{ type: 'entity.too.large', limit: 1024 }, 413, problemTypes.payloadTooLarge, /1024 bytes/],
    [{ type: 'charset.unsupported', message: 'unsupported charset "X"' }, 415, problemTypes.validation, /charset/],
    [{ status: 404, message: 'nope' }, 404, problemTypes.validation, /nope/],
    [new Error('secret internals'), 500, problemTypes.internal, /unexpected error/],
    ['a string', 500, problemTypes.internal, /unexpected error/],
  ])('maps %j to %i', (thrown, status, type, detail) => {
    const problem = toHttpProblem(thrown).toProblem('/x', 'rid');
    expect(problem).toMatchObject({ status, type, instance: '/x', requestId: 'rid' });
    expect(problem.detail).toMatch(detail);
  });

  it('never leaks the message of an unexpected error', () => {
    expect(toHttpProblem(new Error('password=hunter2')).detail).not.toContain('hunter2');
  });

  it('keeps HttpProblem details and extra members but not its headers', () => {
    const p = HttpProblem.unavailable('engine x is down', 30, { engine: 'x' });
    expect(p.extra.headers).toEqual({ 'Retry-After': '30' });
    expect(p.toProblem()).toMatchObject({ status: 503, engine: 'x', detail: 'engine x is down' });
    expect(p.toProblem()).not.toHaveProperty('headers');
  });
});
