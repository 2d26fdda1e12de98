/**
 * WireMock's ListOrSingle: a multi-valued field (query parameter, header, cookie, form field) that
 * renders as its first value (WireMock 3 does the same), and offers `.[n]`, `.first`, `.last` and
 * `each` in templates.
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
    return this.length === 0 ? '' : String(this[0]);
  }

  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }
}

export function isListOrSingle(value: unknown): value is ListOrSingle<unknown> {
  return value instanceof ListOrSingle;
}

/**
 * A list a template helper made (`array`, `range`, `arrayAdd`, `arrayRemove`, `pickRandom count=`): it prints
 * as WireMock prints its Java lists, `[1, two, true]` (List.toString), not as JavaScript joins an array.
 */
export class TemplateList<T = unknown> extends Array<T> {
  static fromValues<T>(values: readonly T[]): TemplateList<T> {
    const list = new TemplateList<T>();
    for (const value of values) list.push(value);
    return list;
  }

  override toString(): string {
    return `[${Array.prototype.map.call(this, javaText).join(', ')}]`;
  }

  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }
}

/** An element as Java's String.valueOf prints it in a list: null as `null`, lists `[a, b]`, maps `{k=v}`. */
function javaText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value) && !(value instanceof ListOrSingle)) return TemplateList.prototype.toString.call(value);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return `{${Object.entries(value).map(([k, v]) => `${k}=${javaText(v)}`).join(', ')}}`;
  }
  return String(value);
}
