import type { EngineRef } from '../domain/engine-ref';
import { EngineRejectedError } from '../domain/hub-errors';
import { engineErrors, toHttpProblem } from './to-http-problem';

describe('engineErrors', () => {
  it('reads each WireMock error as a {path, message} into the request body, pointer unescaped', () => {
    const body = {
      errors: [
        { code: 10, source: { pointer: '/request/bodyPatterns/0/matches' }, title: 'Error parsing JSON', detail: 'regex "(a+)+" can backtrack' },
        { code: 10, source: { pointer: '/request/headers/a~1b~0c' }, title: 'Error parsing JSON', detail: 'unknown match operator' },
        { code: 10, title: 'Only a title' },
        { code: 10, source: { pointer: '' }, detail: 'the whole body' },
        { code: 10 },
      ],
    };
    expect(engineErrors(body)).toEqual([
      { path: 'body.request.bodyPatterns.0.matches', message: 'regex "(a+)+" can backtrack' },
      { path: 'body.request.headers.a/b~c', message: 'unknown match operator' },
      { path: 'body', message: 'Only a title' },
      { path: 'body', message: 'the whole body' },
    ]);
  });

  it.each([[undefined], ['text'], [{}], [{ errors: 'x' }], [{ errors: [] }], [{ errors: [null, {}] }]])('is undefined for %j', (body) => {
    expect(engineErrors(body)).toBeUndefined();
  });
});

describe('toHttpProblem of an engine rejection', () => {
  const engine: EngineRef = { id: 'local', name: 'local', url: 'http://127.0.0.1:9', isLocal: true };

  it('keeps the status and the engine, and names the refused fields', () => {
    const body = { errors: [{ code: 10, source: { pointer: '/request/urlPathx' }, title: 'Error parsing JSON', detail: "unrecognised field 'urlPathx'" }] };
    const problem = toHttpProblem(new EngineRejectedError(engine, 422, 'engine local answered 422', body)) as { status: number; extra: Record<string, unknown> };
    expect(problem.status).toBe(422);
    expect(problem.extra).toMatchObject({ errors: [{ path: 'body.request.urlPathx', message: "unrecognised field 'urlPathx'" }], engine: { id: 'local' }, engineResponse: body });
  });
});
