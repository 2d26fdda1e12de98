/**
 * WireMock's ListOrSingle: a multi-valued field (query parameter, header, cookie, form field) that
 * renders as its value when it has one, as `[a, b]` when it has several, and offers `.[n]`, `.first`
 * and `.last` in templates.
 */
export class ListOrSingle<T = string> extends Array<T> {
  static fromValues<T>(values: readonly T[]): ListOrSingle<T> {
    const list = new ListOrSingle<T>();
    for (const value of values) list.push(value);
    // Own properties: Handlebars refuses prototype getters.
    Object.defineProperty(list, 'first', { value: values[0], enumerable: false });
    Object.defineProperty(list, 'last', { value: values[values.length - 1], enumerable: false });
    return list;
  }

  override toString(): string {
    if (this.length === 1) return String(this[0]);
    return `[${this.join(', ')}]`;
  }

  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }
}

export function isListOrSingle(value: unknown): value is ListOrSingle<unknown> {
  return value instanceof ListOrSingle;
}
