import { describeErrorBody } from './api-error';

describe('error messages shown to the user', () => {
  it.each([
    [0, 'no answer within 10 s', 'no answer within 10 s'],
    [404, { title: 'Not Found', status: 404, detail: 'no stub with id x' }, '404: no stub with id x'],
    [400, { detail: 'Invalid request', errors: [{ path: 'body.url', message: 'required' }] }, '400: Invalid request — body.url: required'],
    [422, { errors: [{ code: 10, source: { pointer: '/request' }, title: 'bad matcher' }] }, '422: /request: bad matcher'],
    [
      422,
      { errors: [{ code: 10, source: { pointer: '/request/headers/X' }, title: 'Error parsing JSON', detail: "unknown match operator 'nope'" }] },
      "422: /request/headers/X: unknown match operator 'nope'",
    ],
    [
      400,
      { detail: 'Invalid params: params.id: id must be an exchange id (a UUID)', errors: [{ path: 'params.id', message: 'id must be an exchange id (a UUID)' }] },
      '400: Invalid params: params.id: id must be an exchange id (a UUID)',
    ],
    [400, { detail: 'required', errors: [{ path: 'body.url', message: 'required' }] }, '400: body.url: required'],
    [502, 'Bad Gateway', '502: Bad Gateway'],
    [500, null, 'HTTP 500'],
  ])('describes %s %j as %s', (status, body, text) => {
    expect(describeErrorBody(status, body)).toBe(text);
  });

  it("names the engine and says where it refused a stub the hub passed on", () => {
    const body = {
      status: 422, detail: 'engine local answered 422: …', engine: { id: 'local', name: 'local' },
      engineResponse: { errors: [{ code: 10, source: { pointer: '/request/headers/X' }, title: "unknown match operator 'nope'" }] },
    };
    expect(describeErrorBody(422, body)).toBe("422: engine local refused it — /request/headers/X: unknown match operator 'nope'");
  });
});
