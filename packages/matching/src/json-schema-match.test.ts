import { compileContentPattern } from './compile-content-pattern';

const schema = {
  type: 'object',
  required: ['id', 'name'],
  properties: {
    id: { type: 'integer', minimum: 1 },
    name: { type: 'string', minLength: 2, pattern: '^[A-Z]' },
    email: { type: 'string', format: 'email' },
    tags: { type: 'array', items: { type: 'string' }, uniqueItems: true, maxItems: 3 },
    kind: { enum: ['a', 'b'] },
    address: { $ref: '#/definitions/address' },
  },
  additionalProperties: false,
  definitions: { address: { type: 'object', required: ['city'], properties: { city: { type: 'string' } } } },
};

function isValid(body: unknown, spec: unknown = schema): boolean {
  const d = compileContentPattern({ matchesJsonSchema: spec }, 'p').distance(typeof body === 'string' ? body : JSON.stringify(body));
  return d === 0;
}

describe('matchesJsonSchema', () => {
  it.each<[string, unknown, boolean]>([
    ['a valid document', { id: 1, name: 'Bob', tags: ['x'], kind: 'a', address: { city: 'Paris' } }, true],
    ['a missing required field', { id: 1 }, false],
    ['a wrong type', { id: '1', name: 'Bob' }, false],
    ['a non-integer', { id: 1.5, name: 'Bob' }, false],
    ['below minimum', { id: 0, name: 'Bob' }, false],
    ['too short', { id: 1, name: 'B' }, false],
    ['a pattern miss', { id: 1, name: 'bob' }, false],
    ['a bad email', { id: 1, name: 'Bob', email: 'nope' }, false],
    ['duplicate items', { id: 1, name: 'Bob', tags: ['x', 'x'] }, false],
    ['too many items', { id: 1, name: 'Bob', tags: ['a', 'b', 'c', 'd'] }, false],
    ['an enum miss', { id: 1, name: 'Bob', kind: 'c' }, false],
    ['an additional property', { id: 1, name: 'Bob', extra: true }, false],
    ['a $ref miss', { id: 1, name: 'Bob', address: {} }, false],
    ['text that is not JSON', 'not json', false],
  ])('%s', (_name, body, expected) => {
    expect(isValid(body)).toBe(expected);
  });

  it.each<[string, unknown, unknown, boolean]>([
    ['anyOf', { anyOf: [{ type: 'string' }, { type: 'number' }] }, 3, true],
    ['oneOf with two matches', { oneOf: [{ type: 'number' }, { minimum: 0 }] }, 3, false],
    ['allOf', { allOf: [{ type: 'number' }, { maximum: 2 }] }, 3, false],
    ['not', { not: { type: 'string' } }, 3, true],
    ['if/then', { if: { properties: { a: { const: 1 } } }, then: { required: ['b'] } }, { a: 1 }, false],
    ['tuple items', { prefixItems: [{ type: 'string' }, { type: 'number' }], items: false }, ['a', 1], true],
    ['tuple items with an extra', { prefixItems: [{ type: 'string' }], items: false }, ['a', 1], false],
    ['exclusiveMaximum (number)', { exclusiveMaximum: 3 }, 3, false],
    ['draft-4 exclusiveMinimum', { minimum: 3, exclusiveMinimum: true }, 3, false],
    ['contains', { contains: { const: 2 } }, [1, 2], true],
    ['a string schema given as text', '{"type": "array"}', [1], true],
    ['true schema', true, { any: 1 }, true],
  ])('%s', (_name, spec, body, expected) => {
    expect(isValid(body, spec)).toBe(expected);
  });

  it('rejects a catastrophic pattern inside the schema', () => {
    expect(() => compileContentPattern({ matchesJsonSchema: { pattern: '(a+)+$' } }, 'p')).toThrow(/catastrophically/);
  });
});
