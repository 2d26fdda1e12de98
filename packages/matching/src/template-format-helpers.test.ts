import { buildTemplateModel } from './build-template-model';
import { toMatchableRequest } from './matchable-request';
import { renderTemplate } from './render-template';
import { formatDecimalPattern } from './template-format-helpers';

const request = toMatchableRequest({ method: 'GET', url: '/price?amount=1234.5&qty=3&when=2021-06-14T23:30:00Z', headers: {}, body: '' });
const render = (template: string) => renderTemplate(template, buildTemplateModel(request, {}));

describe('stringFormat (java.util.Formatter)', () => {
  it.each<[string, string]>([
    ["{{stringFormat 'Hello %s, you have %d new %s' 'Ann' 3 'messages'}}", 'Hello Ann, you have 3 new messages'],
    ["{{stringFormat '%.2f' 3.14159}}|{{stringFormat '%08.3f' 3.14159}}|{{stringFormat '%f' 1.5}}", '3.14|0003.142|1.500000'],
    // %f rounds the shortest decimal form half-up: Java prints 2.68 and 0.2 where C's printf prints 2.67 and 0.1
    ["{{stringFormat '%.2f|%.1f' 2.675 0.15}}", '2.68|0.2'],
    ["{{stringFormat '%,d|%+d|%(d|% d|%05d' 1234567 5 -5 7 -42}}", '1,234,567|+5|(5)| 7|-0042'],
    ["{{stringFormat '%x|%X|%o|%#x|%x' 255 255 8 255 -1}}", 'ff|FF|10|0xff|ffffffff'],
    ["{{stringFormat '[%5s|%-5s|%.2s|%S]' 'ab' 'ab' 'abc' 'up'}}", '[   ab|ab   |ab|UP]'],
    ["{{stringFormat '%2$s %1$s %<s' 'a' 'b'}}", 'b a a'],
    ["{{stringFormat '%.3e|%E' 12345.678 0.000123}}", '1.235e+04|1.230000E-04'],
    ["{{stringFormat '%b %b %b|%c%c|100%%' true 'false' null 65 'xyz'}}", 'true true false|Ax|100%'],
    ["{{stringFormat 'qty=%d total=%.2f' request.query.qty request.query.amount}}", 'qty=3 total=1234.50'],
  ])('%s', (template, expected) => {
    expect(render(template)).toBe(expected);
  });

  it.each<[string, RegExp]>([
    ["{{stringFormat '%s and %s' 'one'}}", /stringFormat: %s has no argument \(1 given\)/],
    ["{{stringFormat '%d' 'abc'}}", /stringFormat: found "abc", expected a number/],
    ["{{stringFormat '%d' 1.5}}", /stringFormat: %d needs a whole number, got 1.5/],
    ["{{stringFormat '%t' 1}}", /stringFormat: %t is not a supported conversion/],
    ["{{stringFormat '%999999999s' 'a'}}", /stringFormat: width must be a whole number from 0 to 100000, got 999999999/],
    ["{{stringFormat '%.999999999f' 1}}", /stringFormat: width must be a whole number from 0 to 100000/],
    ["{{rjust 'a' size=999999999}}", /rjust: width must be a whole number from 0 to 100000/],
  ])('%s fails with a clear error', (template, error) => {
    expect(() => render(template)).toThrow(error);
  });
});

describe('numberFormat (DecimalFormat, NumberFormat styles)', () => {
  it.each<[string, string]>([
    ["{{numberFormat 1234567.891}}", '1,234,567.891'],
    ["{{numberFormat 1234.5678 '#,##0.00'}}", '1,234.57'],
    // HALF_EVEN on the double's exact value: 0.125 is a tie (even: 0.12), 2.675 is 2.67499… (down)
    ["{{numberFormat 0.125 '0.00'}}|{{numberFormat 0.375 '0.00'}}|{{numberFormat 2.675 '0.00'}}", '0.12|0.38|2.67'],
    ["{{numberFormat 0.5 '#.##'}}|{{numberFormat 0 '#.##'}}|{{numberFormat 7 '000'}}|{{numberFormat 1.5 '0.###'}}", '.5|0|007|1.5'],
    ["{{numberFormat -1234.5 '#,##0.0;(#,##0.0)'}}|{{numberFormat -3 '0'}}|{{numberFormat -0.001 '0.00'}}", '(1,234.5)|-3|0.00'],
    ["{{numberFormat 0.256 '#0.0%'}}|{{numberFormat 42 \"'#'0\"}}|{{numberFormat 42 \"0'%'\"}}", '25.6%|#42|42%'],
    ["{{numberFormat 2.5 'integer'}}|{{numberFormat 3.5 'integer'}}|{{numberFormat 12345.6 'INTEGER'}}", '2|4|12,346'],
    ["{{numberFormat 0.125 'percent'}}|{{numberFormat 1234.5 'currency'}}|{{numberFormat 1234.5 'currency' 'en_GB'}}", '12%|$1,234.50|£1,234.50'],
    ["{{numberFormat 1234.5 '#,##0.00' 'de_DE'}}|{{numberFormat 12 '¤#,##0.00' 'en_GB'}}", '1.234,50|£12.00'],
    ["{{numberFormat request.query.amount '#,##0.00'}}", '1,234.50'],
  ])('%s', (template, expected) => {
    expect(render(template)).toBe(expected);
  });

  it.each<[string, RegExp]>([
    ["{{numberFormat 'abc'}}", /numberFormat: found "abc", expected a number/],
    ["{{numberFormat 1 'not a pattern'}}", /numberFormat: "not a pattern" is not a number format/],
    ["{{numberFormat 1 'currency' 'xx'}}", /numberFormat: no currency known for locale/],
  ])('%s fails with a clear error', (template, error) => {
    expect(() => render(template)).toThrow(error);
  });

  it('formats large values without exponent notation', () => {
    expect(formatDecimalPattern(1e21, '#,##0')).toBe('1,000,000,000,000,000,000,000');
    expect(formatDecimalPattern(1e-7, '0.0######')).toBe('0.0000001');
  });
});

describe('dateFormat', () => {
  it.each<[string, string]>([
    ["{{dateFormat (parseDate '2021-06-14T10:00:00Z') 'yyyy-MM-dd'}}", '2021-06-14'],
    ["{{dateFormat (parseDate '2021-06-14T10:00:00Z') 'full'}}|{{dateFormat (parseDate '2021-06-14T10:00:00Z')}}|{{dateFormat (parseDate '2021-06-14T10:00:00Z') 'short'}}", 'Monday, June 14, 2021|Jun 14, 2021|6/14/21'],
    ["{{dateFormat (parseDate request.query.when) 'yyyy-MM-dd HH:mm' tz='Asia/Tokyo'}}", '2021-06-15 08:30'],
    ["{{dateFormat (parseDate '2021-06-14T10:00:00Z') format='dd/MM/yyyy'}}", '14/06/2021'],
  ])('%s', (template, expected) => {
    expect(render(template)).toBe(expected);
  });

  it('refuses an unknown time zone and a value that is no date', () => {
    expect(() => render("{{dateFormat (parseDate '2021-06-14T10:00:00Z') 'yyyy' tz='Nowhere/Land'}}")).toThrow(/dateFormat: unknown time zone Nowhere\/Land/);
    expect(() => render("{{dateFormat 'soon' 'yyyy'}}")).toThrow(/dateFormat: cannot read "soon" as a date/);
  });
});

describe('isEven, isOdd, stripes, capitalizeFirst, wordWrap', () => {
  it.each<[string, string]>([
    ["{{isEven 4}}|{{isEven 3}}|{{isOdd 3}}|{{isOdd -3}}|{{isEven 2 'yes'}}", 'even||odd|odd|yes'],
    ["{{#each (array 'a' 'b' 'c')}}{{stripes @index 'e' 'o'}}{{/each}}|{{stripes 2}}", 'eoe|even'],
    ["{{capitalizeFirst 'hello world'}}", 'Hello world'],
    ["{{wordWrap 'the quick brown fox jumps' 10}}", 'the quick\nbrown fox\njumps'],
    ["{{wordWrap 'incomprehensibilities here' 5}}", 'incomprehensibilities\nhere'],
  ])('%s', (template, expected) => {
    expect(render(template)).toBe(expected);
  });
});
