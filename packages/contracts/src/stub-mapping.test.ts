import { StubMappingSchema } from './stub-mapping';

const stubWithMethod = (method: unknown) => ({ request: { method, urlPath: '/x' }, response: { status: 200 } });

describe('StubMappingSchema', () => {
  it.each([
    ['a method name', 'GET'],
    ['ANY', 'ANY'],
    ['a oneOf method pattern (WireMock 3)', { oneOf: ['GET', 'POST'] }],
    ['a noneOf method pattern (WireMock 3)', { noneOf: ['DELETE'] }],
    ['no method', undefined],
  ])('accepts a stub whose request method is %s, keeping it as given', (_name, method) => {
    const parsed = StubMappingSchema.safeParse(stubWithMethod(method));
    expect(parsed.success).toBe(true);
    expect(parsed.data?.request.method).toEqual(method);
  });

  it.each([
    ['a number', 5],
    ['an array', ['GET']],
    ['null', null],
    ['a oneOf that is not a list of names', { oneOf: 'GET' }],
  ])('refuses a request method that is %s', (_name, method) => {
    expect(StubMappingSchema.safeParse(stubWithMethod(method)).success).toBe(false);
  });

  it.each([[0, true], [1, true], [2147483647, true], [-1, false], [1.5, false]])('takes priority %p: %p (as the engine does)', (priority, ok) => {
    expect(StubMappingSchema.safeParse({ ...stubWithMethod('GET'), priority }).success).toBe(ok);
  });
});
