import { HttpProblem } from './http-problem';
import { verifyJsonBody } from './verify-json-body';

describe('verifyJsonBody', () => {
  it.each([
    ['plain JSON', Buffer.from('{"a":[1,2,{"b":"ü"}]}')],
    ['brackets inside strings', Buffer.from(`{"a":"${'['.repeat(5000)}"}`)],
    ['nesting at the limit', Buffer.from('['.repeat(1000) + ']'.repeat(1000))],
  ])('accepts %s', (_name, buf) => {
    expect(() => verifyJsonBody(undefined, undefined, buf)).not.toThrow();
  });

  it.each([
    ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), /not valid UTF-8/],
    ['nesting past the limit', Buffer.from('['.repeat(1001) + ']'.repeat(1001)), /deeper than 1000/],
    ['a million levels (no stack overflow)', Buffer.from('{"a":'.repeat(1_000_000) + '1' + '}'.repeat(1_000_000)), /deeper than 1000/],
  ])('refuses %s with a 400 problem', (_name, buf, message) => {
    let thrown: unknown;
    try {
      verifyJsonBody(undefined, undefined, buf);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(HttpProblem);
    expect((thrown as HttpProblem).status).toBe(400);
    expect((thrown as HttpProblem).message).toMatch(message);
  });
});
