import Handlebars from 'handlebars';
import type { TemplateModel } from './build-template-model';
import { TemplateError } from './template-error';
import { dateHelpers } from './template-date-helpers';
import { formatHelpers } from './template-format-helpers';
import { jsonHelpers } from './template-json-helpers';
import { logicHelpers } from './template-logic-helpers';
import { miscHelpers } from './template-misc-helpers';
import { randomHelpers } from './template-random-helpers';
import { stringHelpers } from './template-string-helpers';

/** One Handlebars environment with WireMock's helpers (the built-ins if/unless/each/with/lookup stay). */
const handlebars = Handlebars.create();
for (const helpers of [jsonHelpers, randomHelpers, dateHelpers, stringHelpers, formatHelpers, logicHelpers, miscHelpers]) {
  for (const [name, helper] of Object.entries(helpers)) handlebars.registerHelper(name, helper);
}

/** Loop iterations one render may run (nested `each` over `range` could otherwise spin for hours). */
const MAX_ITERATIONS_PER_RENDER = 1_000_000;
let iterationsLeft = MAX_ITERATIONS_PER_RENDER;
const builtInEach = handlebars.helpers.each as (this: unknown, context: unknown, options: Handlebars.HelperOptions) => string;
/** Characters loops may produce in one render, checked per iteration (a loop must not exhaust memory). */
const MAX_LOOP_OUTPUT_CHARS = 50_000_000;
let loopOutputLeft = MAX_LOOP_OUTPUT_CHARS;
handlebars.registerHelper('each', function (this: unknown, context: unknown, options: Handlebars.HelperOptions) {
  const size = Array.isArray(context) ? context.length : context && typeof context === 'object' ? Object.keys(context).length : 0;
  iterationsLeft -= size;
  if (iterationsLeft < 0) throw new TemplateError(`template error: more than ${MAX_ITERATIONS_PER_RENDER} loop iterations in one response`);
  const fn = options.fn;
  const counted = (item: unknown, runtime?: Handlebars.RuntimeOptions): string => {
    const out = fn(item, runtime);
    loopOutputLeft -= out.length;
    if (loopOutputLeft < 0) throw new TemplateError(`template error: loops produced more than ${MAX_LOOP_OUTPUT_CHARS} characters in one response`);
    return out;
  };
  return builtInEach.call(this, context, { ...options, fn: counted as Handlebars.TemplateDelegate });
});

export const TEMPLATE_HELPER_NAMES: readonly string[] = Object.keys(handlebars.helpers).sort();

const MAX_CACHED = 2000;
const cache = new Map<string, Handlebars.TemplateDelegate>();

/** Compiles (once; cached by source) a template; throws TemplateError for a syntax error. */
export function compileTemplate(template: string): Handlebars.TemplateDelegate {
  const cached = cache.get(template);
  if (cached) return cached;
  let compiled: Handlebars.TemplateDelegate;
  try {
    const source = bracketNumericSegments(template);
    // Handlebars compiles lazily: parse now so syntax errors surface here, not mid-response.
    handlebars.parse(source);
    compiled = handlebars.compile(source, { strict: false, noEscape: true });
  } catch (error) {
    throw new TemplateError(`template error: ${(error as Error).message}`, { cause: error });
  }
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(template, compiled);
  return compiled;
}

/** A tag that is not escaped (`\\{{`) nor a comment. */
const TAG = /(?<!\\)\{\{(?!!)([\s\S]*?)\}\}/g;
/**
 * A string literal or a `[...]` segment (both kept as they are), or a path with at least one `.segment`; a
 * numeric segment ends at a character that cannot be in a name.
 */
const LITERAL_OR_PATH = /("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\[[^\]]*\])|([A-Za-z_@$][\w$-]*(?:\.(?:[A-Za-z_$][\w$-]*|\[[^\]]*\]|\d+(?![\w$-])))+)/g;
/** A `[...]` segment (kept as it is) or a numeric `.N` segment. */
const BRACKETED_OR_NUMERIC = /(\[[^\]]*\])|\.(\d+)(?=\.|$)/g;

/**
 * `{{parts.0}}`, `{{request.pathSegments.1}}`: Handlebars.java (WireMock) reads a numeric path segment as an
 * index, Handlebars.js refuses it as a syntax error; it takes `parts.[0]`, which this rewrites them to, in
 * paths inside tags only (string literals, `[...]` segments, escaped `\\{{` and numbers such as `1.5` stay as they are).
 */
function bracketNumericSegments(template: string): string {
  if (!/\.\d/.test(template)) return template;
  return template.replace(
    TAG,
    (_tag, inner: string) =>
      `{{${inner.replace(LITERAL_OR_PATH, (path: string, kept?: string) => (kept ? path : path.replace(BRACKETED_OR_NUMERIC, (segment: string, bracketed?: string, index?: string) => bracketed ?? `.[${index}]`)))}}}`,
  );
}

/** True when the text contains Handlebars syntax at all (lets the engine skip plain bodies). */
export function isTemplate(text: string): boolean {
  return text.includes('{{');
}

/**
 * Renders a Handlebars template against a model from buildTemplateModel. Like WireMock 3, `{{x}}` is not
 * HTML-escaped. Any compile or helper failure becomes a TemplateError with a message fit for a 500
 * response.
 */
export function renderTemplate(template: string, model: TemplateModel): string {
  if (!isTemplate(template)) return template;
  const compiled = compileTemplate(template);
  iterationsLeft = MAX_ITERATIONS_PER_RENDER;
  loopOutputLeft = MAX_LOOP_OUTPUT_CHARS;
  try {
    return compiled(model);
  } catch (error) {
    if (error instanceof TemplateError) throw error;
    throw new TemplateError(`template error: ${(error as Error).message}`, { cause: error });
  }
}
