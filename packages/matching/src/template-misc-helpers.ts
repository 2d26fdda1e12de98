import { hostname as osHostname } from 'node:os';
import type { HelperDelegate } from 'handlebars';
import { ListOrSingle } from './list-or-single';
import { parseQueryString } from './parsed-request';
import { TemplateError } from './template-error';
import { assignVariable, splitArgs, toText } from './template-values';
import { compileXPath, formatPrettyXml, isElementNode, parseXml, serializeXml, textOfNode } from './xml-match';

function selectXPath(xml: string, expression: string, helper: string): string | undefined {
  const document = parseXml(xml);
  if (!document) throw new TemplateError(`${helper}: input is not well-formed XML`);
  let result;
  try {
    result = compileXPath(expression, undefined).evaluate(document);
  } catch (error) {
    throw new TemplateError(`${helper}: invalid XPath ${expression}: ${(error as Error).message}`);
  }
  if ('scalar' in result) return String(result.scalar);
  const node = result.nodes[0];
  if (!node) return undefined;
  return isElementNode(node) && node.childNodes.length > 0 && Array.from(node.childNodes as ArrayLike<{ nodeType: number }>).some((child) => child.nodeType === 1) ? serializeXml(node) : textOfNode(node);
}

export const miscHelpers: Record<string, HelperDelegate> = {
  /** `{{xPath request.body '/root/name/text()'}}` -> text of the first node (an element with children as XML). */
  xPath(...args: unknown[]) {
    const { values, options } = splitArgs(args);
    return selectXPath(toText(values[0]), toText(values[1]), 'xPath') ?? options.hash.default ?? '';
  },
  /** `{{soapXPath request.body '/m:a/text()'}}`: the expression is relative to the SOAP Body's content. */
  soapXPath(...args: unknown[]) {
    const { values, options } = splitArgs(args);
    const expression = `/*[local-name()='Envelope']/*[local-name()='Body']${toText(values[1]).replace(/^\/?/, '/')}`;
    return selectXPath(toText(values[0]), expression, 'soapXPath') ?? options.hash.default ?? '';
  },
  /** `{{formatXml request.body}}` pretty-prints (2 spaces); `format='compact'` strips whitespace between elements. */
  formatXml(this: unknown, ...args: unknown[]) {
    const { values, options } = splitArgs(args);
    const text = typeof options.fn === 'function' ? options.fn(this) : toText(values[0]);
    const document = parseXml(text);
    if (!document?.documentElement) throw new TemplateError('formatXml: input is not well-formed XML');
    return formatPrettyXml(document.documentElement, 0, options.hash.format === 'compact');
  },
  hostname() {
    return osHostname();
  },
  /**
   * `{{systemValue type='ENVIRONMENT' key='PATH'}}`: only values the engine put in the allow-list
   * (TemplateModelOptions.systemValues) are visible; anything else renders `default=` or ''.
   */
  systemValue(...args: unknown[]) {
    const { options } = splitArgs(args);
    const type = String(options.hash.type ?? 'ENVIRONMENT').toUpperCase();
    if (type !== 'ENVIRONMENT' && type !== 'PROPERTY') throw new TemplateError('systemValue: type must be ENVIRONMENT or PROPERTY');
    const root = options.data?.root as { __systemValues?: Record<string, string> } | undefined;
    const value = root?.__systemValues?.[`${type}:${toText(options.hash.key)}`];
    return value ?? options.hash.default ?? '';
  },
  /** `{{formData request.body 'form' urlDecode=true}}` then `{{form.field}}` (each a ListOrSingle). */
  formData(this: unknown, ...args: unknown[]) {
    const { values, options } = splitArgs(args);
    if (typeof values[1] !== 'string') throw new TemplateError('formData: the second argument must be a variable name');
    const body = toText(values[0]);
    const parsed = options.hash.urlDecode === true ? parseQueryString(body) : rawForm(body);
    const form: Record<string, ListOrSingle<string>> = {};
    for (const [name, list] of Object.entries(parsed)) form[name] = ListOrSingle.fromValues(list);
    assignVariable(this, options, values[1], form);
    return '';
  },
};

function rawForm(body: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const pair of body.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    (out[name] ??= []).push(eq < 0 ? '' : pair.slice(eq + 1));
  }
  return out;
}
