import type { HelperDelegate } from 'handlebars';
import { compileUserRegex } from './compile-user-regex';
import { isListOrSingle, TemplateList } from './list-or-single';
import { TemplateError } from './template-error';
import { assignVariable, conditional, isTruthy, splitArgs, toComparable, toNumber, toPlainJson, toText } from './template-values';

/** Like Handlebars.java's comparisons: two strings compare as text (`'10' < '9'`), otherwise as numbers. */
function compare(a: unknown, b: unknown): number {
  const left = toComparable(a);
  const right = toComparable(b);
  if (typeof left === 'string' && typeof right === 'string') return left < right ? -1 : left > right ? 1 : 0;
  const leftNumber = toNumber(left);
  const rightNumber = toNumber(right);
  if (!Number.isNaN(leftNumber) && !Number.isNaN(rightNumber) && toText(left).trim() !== '' && toText(right).trim() !== '') return leftNumber - rightNumber;
  return toText(left).localeCompare(toText(right));
}

function equals(a: unknown, b: unknown): boolean {
  const left = toComparable(a);
  const right = toComparable(b);
  if (left === right) return true;
  if (typeof left === 'number' || typeof right === 'number') return toNumber(left) === toNumber(right);
  return toText(left) === toText(right) && typeof left !== 'object' && typeof right !== 'object';
}

function compareHelper(test: (a: unknown, b: unknown) => boolean): HelperDelegate {
  return function (this: unknown, ...args: unknown[]) {
    const { values, options } = splitArgs(args);
    return conditional(test(values[0], values[1]), this, options);
  };
}

function regexFor(pattern: unknown, helper: string): RegExp {
  const check = compileUserRegex(toText(pattern));
  if (!check.ok) throw new TemplateError(`${helper}: ${check.message}`);
  return new RegExp(check.regex.source.slice(4, -2), check.regex.flags);
}

export const logicHelpers: Record<string, HelperDelegate> = {
  eq: compareHelper(equals),
  neq: compareHelper((a, b) => !equals(a, b)),
  lt: compareHelper((a, b) => compare(a, b) < 0),
  gt: compareHelper((a, b) => compare(a, b) > 0),
  lte: compareHelper((a, b) => compare(a, b) <= 0),
  gte: compareHelper((a, b) => compare(a, b) >= 0),
  and(this: unknown, ...args: unknown[]) {
    const { values, options } = splitArgs(args);
    return conditional(values.every(isTruthy), this, options);
  },
  or(this: unknown, ...args: unknown[]) {
    const { values, options } = splitArgs(args);
    return conditional(values.some(isTruthy), this, options);
  },
  not(this: unknown, ...args: unknown[]) {
    const { values, options } = splitArgs(args);
    return conditional(!isTruthy(values[0]), this, options);
  },
  /** `{{contains 'abcde' 'abc'}}`, `{{contains (array 'a' 'b') 'a'}}`; block form too. */
  contains(this: unknown, ...args: unknown[]) {
    const { values, options } = splitArgs(args);
    const [haystack, needle] = values;
    const found = Array.isArray(haystack) && !isListOrSingle(haystack) ? haystack.some((item) => equals(item, needle)) : toText(toComparable(haystack)).includes(toText(needle));
    return conditional(found, this, options);
  },
  /** `{{matches '123' '[0-9]+'}}` (whole value, like Java's String.matches); block form too. */
  matches(this: unknown, ...args: unknown[]) {
    const { values, options } = splitArgs(args);
    const check = compileUserRegex(toText(values[1]));
    if (!check.ok) throw new TemplateError(`matches: ${check.message}`);
    return conditional(check.regex.test(toText(toComparable(values[0]))), this, options);
  },
  /** `{{regexExtract request.body '[A-Z]+'}}` first match; with a variable name, the groups go there. */
  regexExtract(this: unknown, ...args: unknown[]) {
    const { values, options } = splitArgs(args);
    const regex = regexFor(values[1], 'regexExtract');
    const match = regex.exec(toText(toComparable(values[0])));
    if (!match) {
      if (options.hash.default !== undefined) return options.hash.default;
      throw new TemplateError(`regexExtract: nothing matched ${toText(values[1])}`);
    }
    if (typeof values[2] === 'string') {
      assignVariable(this, options, values[2], match.length > 1 ? match.slice(1) : [match[0]]);
      return '';
    }
    return match[0];
  },
  /** `{{size 'abc'}}` / `{{size (array 1 2)}}` / `{{size request.query.ids}}` */
  size(...args: unknown[]) {
    const { values } = splitArgs(args);
    const value = values[0];
    if (Array.isArray(value)) return value.length;
    if (value && typeof value === 'object' && !('toJSON' in value)) return Object.keys(value).length;
    if (value && typeof value === 'object') {
      const plain = toPlainJson(value);
      return Array.isArray(plain) ? plain.length : plain && typeof plain === 'object' ? Object.keys(plain).length : toText(value).length;
    }
    return toText(value).length;
  },
  /**
   * `{{math 1 '+' 2}}`: + - * / % with Java BigDecimal semantics like WireMock: the result keeps the
   * operands' decimal places (`2 * 1.5` is `3.0`), and `/` rounds half-up to the dividend's places
   * (`10 / 4` is `3`, `10.0 / 4` is `2.5` when 10.0 arrives as text).
   */
  math(...args: unknown[]) {
    const { values } = splitArgs(args);
    const a = toDecimal(values[0]);
    const b = toDecimal(values[2]);
    if (!a || !b) throw new TemplateError('math: both operands must be numbers');
    const fixed = (value: number, scale: number) => value.toFixed(scale);
    switch (toText(values[1])) {
      case '+': return fixed(a.value + b.value, Math.max(a.scale, b.scale));
      case '-': return fixed(a.value - b.value, Math.max(a.scale, b.scale));
      case '*': return fixed(a.value * b.value, a.scale + b.scale);
      case '/': {
        if (b.value === 0) throw new TemplateError('math: division by zero');
        const factor = 10 ** a.scale;
        const quotient = a.value / b.value;
        return fixed((Math.sign(quotient) * Math.round(Math.abs(quotient) * factor + 1e-9)) / factor, a.scale);
      }
      case '%':
        if (b.value === 0) throw new TemplateError('math: division by zero');
        return fixed(a.value % b.value, Math.max(a.scale, b.scale));
      default: throw new TemplateError(`math: unknown operator ${toText(values[1])} (use + - * / %)`);
    }
  },
  /** `{{range 1 5}}` -> [1, 2, 3, 4, 5] (a TemplateList, printed so) */
  range(...args: unknown[]) {
    const { values } = splitArgs(args);
    const from = toNumber(values[0]);
    const to = toNumber(values[1]);
    if (!Number.isInteger(from) || !Number.isInteger(to)) throw new TemplateError('range: bounds must be integers');
    if (Math.abs(to - from) > 100_000) throw new TemplateError('range: at most 100000 numbers');
    const step = from <= to ? 1 : -1;
    const out = new TemplateList<number>();
    for (let i = from; step > 0 ? i <= to : i >= to; i += step) out.push(i);
    return out;
  },
  array(...args: unknown[]) {
    return TemplateList.fromValues(splitArgs(args).values);
  },
  /** `{{arrayAdd (array 1 2) 3}}`, `position='start'|'end'|n` (default end). */
  arrayAdd(...args: unknown[]) {
    const { values, options } = splitArgs(args);
    const list = toList(values[0], 'arrayAdd');
    list.splice(positionIn(list, options.hash.position, 'arrayAdd', list.length), 0, values[1]);
    return TemplateList.fromValues(list);
  },
  /** `{{arrayRemove (array 1 2 3) position=1}}`, `position='start'|'end'|n` (default end). */
  arrayRemove(...args: unknown[]) {
    const { values, options } = splitArgs(args);
    const list = toList(values[0], 'arrayRemove');
    if (list.length > 0) list.splice(positionIn(list, options.hash.position, 'arrayRemove', list.length - 1), 1);
    return TemplateList.fromValues(list);
  },
  /** `{{#assign 'name'}}value{{/assign}}` then `{{name}}`. */
  assign(this: unknown, ...args: unknown[]) {
    const { values, options } = splitArgs(args);
    if (typeof values[0] !== 'string') throw new TemplateError('assign: the first argument must be a variable name');
    const value = typeof options.fn === 'function' ? options.fn(this) : values[1];
    assignVariable(this, options, values[0], value);
    return '';
  },
  /** `{{val request.query.q default='none'}}`, `or=` alternative, `assign='name'` to store instead of print. */
  val(this: unknown, ...args: unknown[]) {
    const { values, options } = splitArgs(args);
    let value = values[0];
    const missing = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v === '');
    if (missing(value)) value = options.hash.or;
    if (missing(value)) value = options.hash.default;
    if (typeof options.hash.assign === 'string') {
      assignVariable(this, options, options.hash.assign, value);
      return '';
    }
    return value ?? '';
  },
};

function toList(value: unknown, helper: string): unknown[] {
  const plain = toPlainJson(value);
  if (!Array.isArray(plain)) throw new TemplateError(`${helper}: the first argument must be an array`);
  return [...plain];
}

function positionIn(list: unknown[], position: unknown, helper: string, fallback: number): number {
  if (position === undefined || position === 'end') return fallback;
  if (position === 'start') return 0;
  const index = toNumber(position);
  if (!Number.isInteger(index) || index < 0 || index > list.length) throw new TemplateError(`${helper}: position must be start, end or an index within the array`);
  return index;
}

/** A number with the count of decimal places it was written with (BigDecimal's scale). */
function toDecimal(value: unknown): { value: number; scale: number } | null {
  const comparable = toComparable(value);
  const text = (typeof comparable === 'number' ? String(comparable) : toText(comparable)).trim();
  const match = /^[+-]?(\d*)(?:\.(\d*))?(?:[eE][+-]?\d+)?$/.exec(text);
  if (!match || text === '' || (match[1] === '' && !match[2])) return null;
  const number = Number(text);
  if (!Number.isFinite(number)) return null;
  return { value: number, scale: /[eE]/.test(text) ? 0 : (match[2]?.length ?? 0) };
}
