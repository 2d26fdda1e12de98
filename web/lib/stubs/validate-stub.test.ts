import { readEngineProblems, validateStubText } from './validate-stub';

describe('stub validation before sending', () => {
  it('accepts a minimal stub and keeps unknown keys for the engine to judge', () => {
    const result = validateStubText(JSON.stringify({ request: { method: 'GET', urlPath: '/x' }, response: { status: 200, jsonBody: { a: 1 } }, scenarioName: 's' }));
    expect(result.problems).toEqual([]);
    expect(result.stub).toMatchObject({ scenarioName: 's' });
  });

  it.each([{ oneOf: ['GET', 'POST'] }, { noneOf: ['DELETE'] }, 'ANY'])("accepts WireMock 3's method rule %j", (method) => {
    expect(validateStubText(JSON.stringify({ request: { method, urlPath: '/x' }, response: {} })).problems).toEqual([]);
  });

  it('marks a JSON syntax error at its position', () => {
    const text = '{\n  "request": {,\n}';
    const [problem] = validateStubText(text).problems;
    expect(problem.path).toBe('(json)');
    expect(problem.message).toMatch(/invalid JSON/);
    expect(problem.from).toBeGreaterThan(0);
    expect(problem.from).toBeLessThan(text.length);
  });

  it.each([
    [{ response: { status: 200 } }, 'request', /request must be an object/],
    [{ request: {}, response: { status: 200 }, priority: -1 }, 'priority', /0 or more/],
    [{ request: {}, response: { status: 200 }, priority: 1.5 }, 'priority', /integer/],
    [{ request: { method: 5 }, response: {} }, 'request.method', /name such as "GET"/],
    [{ request: { method: { oneOf: 'GET' } }, response: {} }, 'request.method', /oneOf/],
    [{ request: { method: { anyOf: ['GET'] } }, response: {} }, 'request.method', /oneOf/],
    [{ request: {}, response: { status: '200' } }, 'response.status', /number/],
    [{ request: { url: '/a', urlPath: '/a' }, response: {} }, 'request', /only one of url, urlPath/],
    [{ request: {}, response: { body: 'x', jsonBody: {} } }, 'response', /only one of body, jsonBody/],
  ])('refuses %j at %s', (stub, path, message) => {
    const problems = validateStubText(JSON.stringify(stub, null, 2)).problems;
    expect(problems.map((p) => p.path)).toContain(path);
    expect(problems.find((p) => p.path === path)?.message).toMatch(message);
  });

  it("marks the engine's refusal at the key its JSON pointer names", () => {
    const text = JSON.stringify({ request: { headers: { 'X-Id': { nope: '1' } } }, response: {} }, null, 2);
    const body = { status: 422, engineResponse: { errors: [{ code: 10, source: { pointer: '/request/headers/X-Id' }, title: "unknown match operator 'nope'" }] } };
    const [problem] = readEngineProblems(text, body);
    expect(problem).toMatchObject({ path: 'request.headers.X-Id', message: "engine: unknown match operator 'nope'" });
    expect(text.slice(problem.from, problem.to)).toBe('"X-Id"');
    expect(readEngineProblems(text, { detail: 'no errors list' })).toEqual([]);
  });

  it('points a schema problem at the key it names', () => {
    const text = JSON.stringify({ request: {}, response: {}, priority: -1 }, null, 2);
    const [problem] = validateStubText(text).problems;
    expect(text.slice(problem.from, problem.to)).toBe('"priority"');
  });
});
