import { InvalidInputError } from './hub-errors';
import { parseTargetSelector } from './target-selector';

describe('parseTargetSelector', () => {
  it.each([
    [undefined, { kind: 'active' }],
    [null, { kind: 'active' }],
    ['local', { kind: 'local' }],
    ['LOCAL', { kind: 'local' }],
    [' local ', { kind: 'local' }],
    ['3F2504E0-4F89-41D3-9A0C-0305E82C3301', { kind: 'server', id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301' }],
  ])('reads %j as %j', (value, expected) => {
    expect(parseTargetSelector(value)).toEqual(expected);
  });

  it.each(['', '   ', 'remote', '1234', 'local2', '3f2504e0-4f89-41d3-9a0c', '3f2504e0-4f89-41d3-9a0c-0305e82c3301x'])('refuses %j as malformed instead of falling back to the active engine', (value) => {
    expect(() => parseTargetSelector(value)).toThrow(InvalidInputError);
  });

  it('names the source in the message', () => {
    expect(() => parseTargetSelector('x', 'targetServer')).toThrow(/targetServer/);
  });
});
