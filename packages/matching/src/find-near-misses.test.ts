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
    expect(report).toContain('Request was not matched');
    expect(report).toContain('| Closest stub');
    expect(report).toContain('Hello stub');
    const urlLine = report.split('\n').find((line) => line.startsWith('/hello '));
    expect(urlLine).toMatch(/\| \/hello2 +<<<<< URL does not match$/);
    expect(report).toMatch(/Accept: text\/plain +\| Accept: application\/json +<<<<< Header does not match/);
    const methodLine = report.split('\n').find((line) => line.startsWith('GET'));
    expect(methodLine).not.toContain('<<<<<');
  });

  it('says there are no stubs when there are none', () => {
    expect(formatNotMatchedReport(request, [])).toContain('(no stubs)');
  });

  it('shows multi-line bodies line by line', () => {
    const bodyStub = stub('b', { method: 'POST', bodyPatterns: [{ equalToJson: { a: 1 } }] });
    const post = toMatchableRequest({ method: 'POST', url: '/x', headers: { host: 'h' }, body: '{"a":2}' });
    const report = formatNotMatchedReport(post, findNearMisses([bodyStub], post));
    expect(report).toMatch(/\{ +\| \{"a":2\} +<<<<< Body does not match/);
    expect(report).toContain('"a": 1');
  });
});
