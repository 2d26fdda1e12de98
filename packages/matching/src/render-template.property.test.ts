import fc from 'fast-check';
import { buildTemplateModel } from './build-template-model';
import { toMatchableRequest } from './matchable-request';
import { renderTemplate } from './render-template';
import { TemplateError } from './template-error';

const model = buildTemplateModel(toMatchableRequest({ method: 'POST', url: '/a/b?q=1', headers: { host: 'h' }, body: '{"a":[1,2]}' }));
const helper = fc.constantFrom('jsonPath', 'regexExtract', 'now', 'date', 'parseDate', 'math', 'range', 'size', 'base64', 'urlEncode', 'eq', 'lt', 'substring', 'abbreviate', 'join', 'split', 'val', 'parseJson', 'formatJson', 'xPath', 'randomValue', 'pickRandom', 'truncateDate', 'capitalize', 'replace');
const argument = fc.oneof(fc.constantFrom('request.body', 'request.path', 'request.query.q', "'$.a'", "'x'", '1', '-3', "'3 days'", "'[0-9]+'", "(array 1 2)", 'true'), fc.string({ maxLength: 6 }).map((text) => `'${text.replace(/'/g, '')}'`));
const hash = fc.constantFrom('', " default='d'", " format='yyyy'", " offset='1 days'", ' length=3', " type='UUID'", ' decode=true');
const expression = fc.tuple(helper, fc.array(argument, { maxLength: 3 }), hash).map(([name, args, extra]) => `{{${name} ${args.join(' ')}${extra}}}`);

describe('renderTemplate properties', () => {
  it('either renders a string or throws a TemplateError, for any helper call', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(expression, fc.string({ maxLength: 8 })), { minLength: 1, maxLength: 4 }), (parts) => {
        try {
          expect(typeof renderTemplate(parts.join(''), model)).toBe('string');
        } catch (error) {
          expect(error).toBeInstanceOf(TemplateError);
        }
      }),
      { seed: 424242, numRuns: 500 },
    );
  });
});
