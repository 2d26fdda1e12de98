import type { HelperDelegate } from 'handlebars';
import { TemplateError } from './template-error';
import { splitArgs, toNumber, toPlainJson, toText, toWidth } from './template-values';

function blockOrValue(context: unknown, values: unknown[], options: { fn?: (context: unknown) => string }): string {
  return typeof options.fn === 'function' ? options.fn(context) : toText(values[0]);
}

function capitalizeWord(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** jknack/Handlebars.java string helpers that WireMock ships, plus `split` and `trim`. */
export const stringHelpers: Record<string, HelperDelegate> = {
  capitalize(this: unknown, ...args: unknown[]) {
    const { values, options } = splitArgs(args);
    const text = blockOrValue(this, values, options);
    return options.hash.fully === true ? text.toLowerCase().replace(/\b\p{L}/gu, (c) => c.toUpperCase()) : text.replace(/\b\p{L}/gu, (c) => c.toUpperCase());
  },
  /** `{{capitalizeFirst 'hello world'}}` -> `Hello world` */
  capitalizeFirst(this: unknown, ...args: unknown[]) {
    const { values, options } = splitArgs(args);
    return capitalizeWord(blockOrValue(this, values, options));
  },
  capitalizeFully(this: unknown, ...args: unknown[]) {
    const { values, options } = splitArgs(args);
    return blockOrValue(this, values, options).toLowerCase().split(' ').map(capitalizeWord).join(' ');
  },
  upper(this: unknown, ...args: unknown[]) {
    const { values, options } = splitArgs(args);
    return blockOrValue(this, values, options).toUpperCase();
  },
  lower(this: unknown, ...args: unknown[]) {
    const { values, options } = splitArgs(args);
    return blockOrValue(this, values, options).toLowerCase();
  },
  trim(this: unknown, ...args: unknown[]) {
    const { values, options } = splitArgs(args);
    return blockOrValue(this, values, options).trim();
  },
  /** `{{replace value 'from' 'to'}}` (every occurrence, literal text). */
  replace(this: unknown, ...args: unknown[]) {
    const { values, options } = splitArgs(args);
    if (typeof options.fn === 'function') return options.fn(this).split(toText(values[0])).join(toText(values[1]));
    return toText(values[0]).split(toText(values[1])).join(toText(values[2]));
  },
  /** `{{substring value start [end]}}` */
  substring(...args: unknown[]) {
    const { values } = splitArgs(args);
    const text = toText(values[0]);
    const start = toNumber(values[1]);
    const end = values[2] === undefined ? text.length : toNumber(values[2]);
    if (!Number.isInteger(start) || !Number.isInteger(end)) throw new TemplateError('substring: start and end must be integers');
    return text.substring(start, end);
  },
  /** `{{abbreviate value 10}}` -> `Some te...` */
  abbreviate(...args: unknown[]) {
    const { values } = splitArgs(args);
    const text = toText(values[0]);
    const width = toNumber(values[1]);
    if (!Number.isInteger(width) || width < 4) throw new TemplateError('abbreviate: width must be an integer >= 4');
    return text.length <= width ? text : `${text.slice(0, width - 3)}...`;
  },
  /** `{{join ',' (array 'a' 'b')}}` (separator first, WireMock) or `{{join list ', '}}` (list first). */
  join(...args: unknown[]) {
    const { values, options } = splitArgs(args);
    let separator: string;
    let items: unknown[];
    if (values.length === 2 && Array.isArray(values[1]) && !Array.isArray(values[0])) [separator, items] = [toText(values[0]), values[1] as unknown[]];
    else if (values.length === 2 && Array.isArray(values[0])) [items, separator] = [values[0] as unknown[], toText(values[1])];
    else [items, separator] = [values.slice(0, -1), toText(values[values.length - 1])];
    const prefix = toText(options.hash.prefix);
    const suffix = toText(options.hash.suffix);
    return prefix + items.map(toText).join(separator) + suffix;
  },
  /** `{{arrayJoin ',' (array 'a' 'b') prefix='[' suffix=']'}}` */
  arrayJoin(...args: unknown[]) {
    const { values, options } = splitArgs(args);
    const separator = toText(values[0]);
    const items = values.length === 2 && Array.isArray(values[1]) ? (values[1] as unknown[]) : values.slice(1);
    return toText(options.hash.prefix) + items.map(toText).join(separator) + toText(options.hash.suffix);
  },
  /** `{{split 'a,b,c' ','}}` -> array */
  split(...args: unknown[]) {
    const { values } = splitArgs(args);
    return toText(values[0]).split(values[1] === undefined ? ',' : toText(values[1]));
  },
  defaultIfEmpty(...args: unknown[]) {
    const { values } = splitArgs(args);
    const text = toText(values[0]);
    return text === '' ? toText(values[1]) : text;
  },
  cut(...args: unknown[]) {
    const { values } = splitArgs(args);
    return toText(values[0]).split(values[1] === undefined ? ' ' : toText(values[1])).join('');
  },
  slugify(...args: unknown[]) {
    const { values } = splitArgs(args);
    return toText(values[0]).toLowerCase().normalize('NFKD').replace(/[^\w\s-]/g, '').trim().replace(/[\s_-]+/g, '-');
  },
  stripTags(...args: unknown[]) {
    const { values } = splitArgs(args);
    return toText(values[0]).replace(/<[^>]*>/g, '');
  },
  ljust(...args: unknown[]) {
    const { values, options } = splitArgs(args);
    return toText(values[0]).padEnd(toWidth(options.hash.size ?? values[1], 'ljust'), toText(options.hash.pad ?? ' ') || ' ');
  },
  rjust(...args: unknown[]) {
    const { values, options } = splitArgs(args);
    return toText(values[0]).padStart(toWidth(options.hash.size ?? values[1], 'rjust'), toText(options.hash.pad ?? ' ') || ' ');
  },
  center(...args: unknown[]) {
    const { values, options } = splitArgs(args);
    const text = toText(values[0]);
    const size = toWidth(options.hash.size ?? values[1], 'center');
    const pad = toText(options.hash.pad ?? ' ') || ' ';
    const left = Math.floor(Math.max(0, size - text.length) / 2);
    return text.padStart(text.length + left, pad).padEnd(size, pad);
  },
  /** `{{wordWrap text 20}}`: lines of at most 20 characters broken at spaces (longer words stay whole), as WordUtils.wrap. */
  wordWrap(...args: unknown[]) {
    const { values, options } = splitArgs(args);
    const width = Math.max(1, toNumber(options.hash.length ?? values[1] ?? 80) || 1);
    return toText(values[0])
      .split('\n')
      .map((line) => {
        const lines: string[] = [];
        let current = '';
        for (const word of line.split(' ').filter((w) => w !== '')) {
          if (current === '') current = word;
          else if (current.length + 1 + word.length <= width) current += ` ${word}`;
          else {
            lines.push(current);
            current = word;
          }
        }
        lines.push(current);
        return lines.join('\n');
      })
      .join('\n');
  },
  yesno(...args: unknown[]) {
    const { values, options } = splitArgs(args);
    const value = toPlainJson(values[0]);
    if (value === null || value === undefined) return toText(options.hash.maybe ?? 'maybe');
    return value === true || value === 'true' ? toText(options.hash.yes ?? 'yes') : toText(options.hash.no ?? 'no');
  },
  /** `{{base64 'text'}}`, `{{base64 encoded decode=true}}`, `padding=false` */
  base64(this: unknown, ...args: unknown[]) {
    const { values, options } = splitArgs(args);
    const text = blockOrValue(this, values, options);
    if (options.hash.decode === true) return Buffer.from(text, 'base64').toString('utf8');
    const encoded = Buffer.from(text, 'utf8').toString('base64');
    return options.hash.padding === false ? encoded.replace(/=+$/, '') : encoded;
  },
  /** `{{urlEncode 'a b&c'}}` -> `a+b%26c` (form encoding, like Java's URLEncoder); `decode=true` reverses. */
  urlEncode(this: unknown, ...args: unknown[]) {
    const { values, options } = splitArgs(args);
    const text = blockOrValue(this, values, options);
    if (options.hash.decode === true) {
      try {
        return decodeURIComponent(text.replace(/\+/g, ' '));
      } catch {
        throw new TemplateError('urlEncode: input is not valid URL encoding');
      }
    }
    return encodeURIComponent(text).replace(/%20/g, '+').replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  },
};
