import { resolveInside } from './fs-body-files';

describe('resolveInside', () => {
  it.each(['../secret', '/etc/passwd', 'a/../../b', '', 'x\0y'])('rejects %j', (relative) => {
    expect(() => resolveInside('/root/__files', relative)).toThrow('must stay inside __files');
  });

  it.each([
    ['a.json', '/root/__files/a.json'],
    ['dir/b.txt', '/root/__files/dir/b.txt'],
    ['dir/../c.txt', '/root/__files/c.txt'],
  ])('resolves %j to %j', (relative, expected) => {
    expect(resolveInside('/root/__files', relative)).toBe(expected);
  });
});
