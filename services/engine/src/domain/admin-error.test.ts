import { AdminError, toPointer } from './admin-error';

describe('toPointer', () => {
  it.each([
    ['', ''],
    ['/', ''],
    ['request', '/request'],
    ['request.headers.Accept.matches', '/request/headers/Accept/matches'],
    ['request.bodyPatterns[0].equalToJson', '/request/bodyPatterns/0/equalToJson'],
    ['/already/a/pointer', '/already/a/pointer'],
  ])('turns %j into %j', (path, pointer) => {
    expect(toPointer(path)).toBe(pointer);
  });
});

describe('AdminError.invalidEntity', () => {
  it('builds WireMock JsonException-style errors with a pointer under the root', () => {
    const error = AdminError.invalidEntity([{ path: 'request.urlPattern', message: 'bad regex' }], '/mappings/2');
    expect(error.status).toBe(422);
    expect(error.toJson()).toEqual({ errors: [{ code: 10, source: { pointer: '/mappings/2/request/urlPattern' }, title: 'Error parsing JSON', detail: 'bad regex' }] });
  });
});
