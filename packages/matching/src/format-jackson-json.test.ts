import { formatJacksonJson } from './format-jackson-json';

describe('formatJacksonJson', () => {
  it.each<[unknown, string]>([
    [{ a: 1, b: [1, { c: 2 }], d: {} }, '{\n  "a" : 1,\n  "b" : [ 1, {\n    "c" : 2\n  } ],\n  "d" : { }\n}'],
    [[1, 2], '[ 1, 2 ]'],
    [[], '[ ]'],
    ['x"y', '"x\\"y"'],
    [null, 'null'],
    [{ a: { b: { c: true } } }, '{\n  "a" : {\n    "b" : {\n      "c" : true\n    }\n  }\n}'],
  ])('%j', (value, expected) => {
    expect(formatJacksonJson(value)).toBe(expected);
  });
});
