import { findNearMisses } from './find-near-misses';
import { formatNotMatchedReport } from './format-not-matched-report';
import { toMatchableRequest } from './matchable-request';
import type { StubMapping } from './stub-mapping';

function stub(id: string, request: StubMapping['request'], name?: string): StubMapping {
  return { id, uuid: id, name, request, response: { status: 200 } };
}

const stubs = [
  stub('far', { method: 'DELETE', urlPath: '/completely/elsewhere' }),
  stub('close', { method: 'GET', urlPath: '/hello', headers: { Accept: { equalTo: 'text/plain' } } }, 'Hello stub'),
  stub('closer', { method: 'GET', urlPath: '/hello2', headers: { Accept: { equalTo: 'text/plain' } } }),
  stub('medium', { method: 'POST', urlPath: '/hello2' }),
];
const request = toMatchableRequest({ method: 'GET', url: '/hello2', headers: { host: 'localhost', accept: 'application/json' } });

describe('findNearMisses', () => {
  it('orders stubs by distance, closest first, at most three', () => {
    const misses = findNearMisses(stubs, request);
    expect(misses.map((miss) => miss.stubMapping.id)).toEqual(['closer', 'close', 'medium']);
    const distances = misses.map((miss) => miss.matchResult.distance);
    expect([...distances].sort((a, b) => a - b)).toEqual(distances);
  });

  it("gives the distances a running WireMock 3.13.2 gives for the same stubs and request", () => {
    const withQuery = stub('json', { method: 'GET', urlPath: '/hello2', queryParameters: { a: { equalTo: '1' } } });
    const distances = Object.fromEntries(findNearMisses([...stubs, withQuery], request, 5).map((miss) => [miss.stubMapping.id, miss.matchResult.distance]));
    expect(distances.closer).toBeCloseTo(0.019021739130434784, 12);
    expect(distances.json).toBeCloseTo(0.021739130434782608, 12);
    expect(distances.close).toBeCloseTo(0.036630036630036625, 12);
    expect(distances.medium).toBeCloseTo(0.07692307692307693, 12);
    expect(distances.far).toBeCloseTo(0.2844932844932845, 12);
  });

  it('honours max', () => {
    expect(findNearMisses(stubs, request, 1)).toHaveLength(1);
  });

  it('skips stubs whose pattern does not compile', () => {
    const broken = { ...stub('broken', { urlPattern: '(' }) };
    expect(findNearMisses([broken, ...stubs], request).map((miss) => miss.stubMapping.id)).not.toContain('broken');
  });
});

describe('formatNotMatchedReport', () => {
  it("prints WireMock's two-column diff with mismatch markers", () => {
    const report = formatNotMatchedReport(request, findNearMisses([stubs[1]], request));
    const lines = report.split('\n');
    expect(lines.slice(0, 8)).toEqual([
      '',
      `${' '.repeat(47)}Request was not matched`,
      `${' '.repeat(47)}=======================`,
      '',
      '-'.repeat(119),
      `| ${'Closest stub'.padEnd(57)}| ${'Request'.padEnd(57)}|`,
      '-'.repeat(119),
      `${' '.repeat(59)}|`,
    ]);
    expect(lines).toContain(`${'Hello stub'.padEnd(59)}|`);
    expect(lines).toContain(`${'GET'.padEnd(59)}| GET`);
    expect(lines).toContain(`${'[path] /hello'.padEnd(59)}| ${'/hello2'.padEnd(52)}<<<<< URL does not match`);
    expect(lines).toContain(`${'Accept: text/plain'.padEnd(59)}| ${'Accept: application/json'.padEnd(52)}<<<<< Header does not match`);
    expect(lines[lines.length - 2]).toBe('-'.repeat(119));
  });

  it('shows query parameters with their operators', () => {
    const queryStub = stub('q', { method: 'GET', urlPath: '/thing', queryParameters: { one: { equalTo: '1' }, two: { contains: 'two things' } } });
    const get = toMatchableRequest({ method: 'GET', url: '/thing?one=2&two=two%20things', headers: { host: 'h' } });
    const lines = formatNotMatchedReport(get, findNearMisses([queryStub], get)).split('\n');
    expect(lines).toContain(`${'[path] /thing'.padEnd(59)}| /thing?one=2&two=two%20things`);
    expect(lines).toContain(`${'Query: one = 1'.padEnd(59)}| ${'one: 2'.padEnd(52)}<<<<< Query does not match`);
    expect(lines).toContain(`${'Query: two [contains] two things'.padEnd(59)}| two: two things`);
  });

  it("adds WireMock's hints to a urlPattern mismatch", () => {
    const regexStub = stub('r', { method: 'GET', urlPattern: 'thing?query=value' });
    const get = toMatchableRequest({ method: 'GET', url: '/thing', headers: { host: 'h' } });
    const lines = formatNotMatchedReport(get, findNearMisses([regexStub], get)).split('\n');
    expect(lines).toContain(`${'[regex] thing?query=value'.padEnd(59)}| ${'/thing'.padEnd(52)}<<<<< URL does not match. When using a regex, "?" should be "\\\\?". URLs must start with a /`);
  });

  it("shows the scenario state the closest stub waits for, as WireMock's Scenario line", () => {
    const scenarioStub: StubMapping = { ...stub('s', { method: 'POST', url: '/thing' }), scenarioName: 'thing states', requiredScenarioState: 'first' };
    const post = toMatchableRequest({ method: 'POST', url: '/thing', headers: { host: 'h' } });
    const lines = formatNotMatchedReport(post, findNearMisses([scenarioStub], post), { scenarioStateOf: () => 'Started' }).split('\n');
    expect(lines.slice(-5)).toEqual([
      `${' '.repeat(59)}|`,
      `${"[Scenario 'thing states' state: first]".padEnd(59)}| ${"[Scenario 'thing states' state: Started]".padEnd(52)}<<<<< Scenario does not match`,
      `${' '.repeat(59)}|`,
      '-'.repeat(119),
      '',
    ]);
  });

  it('says there are no stubs when there are none', () => {
    expect(formatNotMatchedReport(request, [])).toContain('(no stubs)');
  });

  it('shows JSON bodies in Jackson layout, line by line, as WireMock does', () => {
    const bodyStub = stub('b', { method: 'GET', url: '/u', bodyPatterns: [{ equalToJson: { a: 1, b: [1, 2] } }] });
    const get = toMatchableRequest({ method: 'GET', url: '/u', headers: { host: 'h' }, body: '{"a":2,"b":[1]}' });
    const lines = formatNotMatchedReport(get, findNearMisses([bodyStub], get)).split('\n');
    const start = lines.findIndex((line) => line.startsWith('[equalToJson]'));
    expect(lines.slice(start, start + 5)).toEqual([
      `${'[equalToJson]'.padEnd(59)}| ${''.padEnd(52)}<<<<< Body does not match`,
      `${'{'.padEnd(59)}| {`,
      `${'  "a" : 1,'.padEnd(59)}|   "a" : 2,`,
      `${'  "b" : [ 1, 2 ]'.padEnd(59)}|   "b" : [ 1 ]`,
      `${'}'.padEnd(59)}| }`,
    ]);
  });

  it('marks missing headers and query parameters as not present', () => {
    const headerStub = stub('h', { method: 'POST', urlPathPattern: '/pp/[0-9]+', headers: { 'X-B': { matches: '[0-9]+' } }, queryParameters: { b: { contains: 'x' } }, cookies: { c: { equalTo: 'v' } }, bodyPatterns: [{ contains: 'zz' }] });
    const post = toMatchableRequest({ method: 'POST', url: '/pp/x?a=2', headers: { host: 'h', cookie: 'c=w' }, body: '{"b":1}' });
    const lines = formatNotMatchedReport(post, findNearMisses([headerStub], post)).split('\n');
    expect(lines).toContain(`${'[path regex] /pp/[0-9]+'.padEnd(59)}| ${'/pp/x?a=2'.padEnd(52)}<<<<< URL does not match`);
    expect(lines).toContain(`${'X-B [matches] : [0-9]+'.padEnd(59)}| ${''.padEnd(52)}<<<<< Header is not present`);
    expect(lines).toContain(`${'Query: b [contains] x'.padEnd(59)}| ${''.padEnd(52)}<<<<< Query is not present`);
    expect(lines).toContain(`${'Cookie: c=v'.padEnd(59)}| ${'w'.padEnd(52)}<<<<< Cookie does not match`);
    expect(lines).toContain(`${'[contains]'.padEnd(59)}| ${''.padEnd(52)}<<<<< Body does not match`);
    expect(lines).toContain(`${'zz'.padEnd(59)}| {"b":1}`);
  });
});
