import { describeEngineError } from './describe-engine-error';

const engine = { id: 'local', name: 'local', url: 'http://127.0.0.1:9090', isLocal: true };

describe('describeEngineError', () => {
  it.each([
    ['WireMock errors', { errors: [{ title: 'Error parsing JSON', detail: 'Unrecognized field "x"' }] }, 'answered 422: Error parsing JSON: Unrecognized field "x"'],
    ['several WireMock errors', { errors: [{ title: 'a' }, { title: 'b' }] }, 'answered 422: a; b'],
    ['a problem detail', { title: 'Bad', detail: 'stub is invalid' }, 'answered 422: stub is invalid'],
    ['a message', { message: 'nope' }, 'answered 422: nope'],
    ['plain text', '  not json  ', 'answered 422: not json'],
    ['nothing', undefined, 'answered 422'],
  ])('reads %s', (_what, body, expected) => {
    expect(describeEngineError(engine, 422, body)).toBe(`engine local (http://127.0.0.1:9090) ${expected}`);
  });
});
