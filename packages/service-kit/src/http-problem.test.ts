import { problemTypes } from '@mockyard/contracts';
import { toHttpProblem, unavailableReason } from './create-service-app';
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

  it.each([
    ['refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), 'ECONNREFUSED'],
    ['refused on every address', new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' })]), 'ECONNREFUSED'],
    ['terminated by an administrator', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }), '57P01'],
    ['starting up', Object.assign(new Error('the database system is starting up'), { code: '57P03' }), '57P03'],
    ['a connection exception', Object.assign(new Error('connection failure'), { code: '08006' }), '08006'],
    ['a connection cut mid-query', new Error('Connection terminated unexpectedly'), 'Connection terminated unexpectedly'],
    ['no connection within the connect timeout', new Error('timeout exceeded when trying to connect'), 'timeout exceeded when trying to connect'],
    ['Prisma: cannot reach the database', Object.assign(new Error("Can't reach database server"), { code: 'P1001' }), 'P1001'],
    ['not accepting connections', Object.assign(new Error('database "x" is not currently accepting connections'), { code: '55000' }), 'database "x" is not currently accepting connections'],
  ])('answers a database that is down or refusing connections (%s) with 503 and Retry-After', (_label, thrown, reason) => {
    const problem = toHttpProblem(thrown);
    expect(problem.status).toBe(503);
    expect(problem.extra.headers).toEqual({ 'Retry-After': '5' });
    expect(problem.detail).toContain(reason);
  });

  it.each([
    ['a unique violation', Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' })],
    ['another 55000', Object.assign(new Error('object not in prerequisite state'), { code: '55000' })],
    ['a bug', new Error('Connection handling bug')],
    ['null', null],
  ])('keeps other errors (%s) out of the 503 class', (_label, thrown) => {
    expect(unavailableReason(thrown)).toBeUndefined();
    expect(toHttpProblem(thrown).status).toBe(500);
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
