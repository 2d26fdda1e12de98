import { randomInt as cryptoRandomInt, randomUUID } from 'node:crypto';
import type { HelperDelegate } from 'handlebars';
import { TemplateList } from './list-or-single';
import { TemplateError } from './template-error';
import { splitArgs, toNumber, toPlainJson } from './template-values';

const ALPHABETS: Record<string, string> = {
  ALPHANUMERIC: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  ALPHABETIC: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  NUMERIC: '0123456789',
  HEXADECIMAL: '0123456789abcdef',
  ALPHANUMERIC_AND_SYMBOLS: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~',
};

export const randomHelpers: Record<string, HelperDelegate> = {
  /** `{{randomValue length=10 type='ALPHANUMERIC' uppercase=true}}`; `type='UUID'` ignores length. */
  randomValue(...args: unknown[]) {
    const { options } = splitArgs(args);
    const type = String(options.hash.type ?? 'ALPHANUMERIC').toUpperCase();
    let value: string;
    if (type === 'UUID') value = randomUUID();
    else {
      const alphabet = ALPHABETS[type];
      if (!alphabet) throw new TemplateError(`randomValue: unknown type ${type} (use ${[...Object.keys(ALPHABETS), 'UUID'].join(', ')})`);
      const length = options.hash.length === undefined ? 36 : toNumber(options.hash.length);
      if (!Number.isInteger(length) || length < 0 || length > 100_000) throw new TemplateError('randomValue: length must be an integer between 0 and 100000');
      value = '';
      for (let i = 0; i < length; i++) value += alphabet[cryptoRandomInt(alphabet.length)];
    }
    return options.hash.uppercase === true ? value.toUpperCase() : value;
  },
  /** `{{randomInt lower=1 upper=10}}`: an integer from lower (inclusive) to upper (exclusive), as WireMock. */
  randomInt(...args: unknown[]) {
    const { options } = splitArgs(args);
    const lower = options.hash.lower === undefined ? -2_147_483_648 : toNumber(options.hash.lower);
    const upper = options.hash.upper === undefined ? 2_147_483_647 : toNumber(options.hash.upper);
    if (!Number.isInteger(lower) || !Number.isInteger(upper) || upper <= lower) throw new TemplateError('randomInt: lower and upper must be integers with lower < upper');
    return lower + Math.floor(Math.random() * (upper - lower));
  },
  /** `{{randomDecimal lower=0.5 upper=10.5}}` */
  randomDecimal(...args: unknown[]) {
    const { options } = splitArgs(args);
    const lower = options.hash.lower === undefined ? -1e9 : toNumber(options.hash.lower);
    const upper = options.hash.upper === undefined ? 1e9 : toNumber(options.hash.upper);
    if (Number.isNaN(lower) || Number.isNaN(upper) || upper < lower) throw new TemplateError('randomDecimal: lower and upper must be numbers with lower <= upper');
    return lower + Math.random() * (upper - lower);
  },
  /** `{{pickRandom 'a' 'b' 'c'}}`, `{{pickRandom (array 1 2 3) count=2}}` */
  pickRandom(...args: unknown[]) {
    const { values, options } = splitArgs(args);
    const pool = values.length === 1 && Array.isArray(values[0]) ? (toPlainJson(values[0]) as unknown[]) : values;
    if (pool.length === 0) throw new TemplateError('pickRandom: nothing to pick from');
    if (options.hash.count === undefined) return pool[Math.floor(Math.random() * pool.length)];
    const count = Math.min(toNumber(options.hash.count), pool.length);
    const copy = [...pool];
    const picked = new TemplateList<unknown>();
    for (let i = 0; i < count; i++) picked.push(copy.splice(Math.floor(Math.random() * copy.length), 1)[0]);
    return picked;
  },
};
