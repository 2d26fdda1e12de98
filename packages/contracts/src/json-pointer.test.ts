import { jsonPointerSegments } from './json-pointer';

describe('jsonPointerSegments', () => {
  it.each([
    ['', []],
    ['/', []],
    ['/request/bodyPatterns/0/matches', ['request', 'bodyPatterns', '0', 'matches']],
    ['/request/headers/a~1b~0c', ['request', 'headers', 'a/b~c']],
    // ~01 is "~1" escaped once: it unescapes to ~1, not to /
    ['/x~01', ['x~1']],
  ])('%j names %j', (pointer, segments) => {
    expect(jsonPointerSegments(pointer)).toEqual(segments);
  });
});
