import Handlebars from 'handlebars';
import type { TemplateModel } from './build-template-model';
import { TemplateError } from './template-error';
import { dateHelpers } from './template-date-helpers';
import { jsonHelpers } from './template-json-helpers';
import { logicHelpers } from './template-logic-helpers';
import { miscHelpers } from './template-misc-helpers';
import { randomHelpers } from './template-random-helpers';
import { stringHelpers } from './template-string-helpers';

/** One Handlebars environment with WireMock's helpers (the built-ins if/unless/each/with/lookup stay). */
const handlebars = Handlebars.create();
for (const helpers of [jsonHelpers, randomHelpers, dateHelpers, stringHelpers, logicHelpers, miscHelpers]) {
  for (const [name, helper] of Object.entries(helpers)) handlebars.registerHelper(name, helper);
}

export const TEMPLATE_HELPER_NAMES: readonly string[] = Object.keys(handlebars.helpers).sort();

const MAX_CACHED = 2000;
const cache = new Map<string, Handlebars.TemplateDelegate>();

/** Compiles (once; cached by source) a template; throws TemplateError for a syntax error. */
export function compileTemplate(template: string): Handlebars.TemplateDelegate {
  const cached = cache.get(template);
  if (cached) return cached;
  let compiled: Handlebars.TemplateDelegate;
  try {
    // Handlebars compiles lazily: parse now so syntax errors surface here, not mid-response.
    handlebars.parse(template);
    compiled = handlebars.compile(template, { strict: false });
  } catch (error) {
    throw new TemplateError(`template error: ${(error as Error).message}`, { cause: error });
  }
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(template, compiled);
  return compiled;
}

/** True when the text contains Handlebars syntax at all (lets the engine skip plain bodies). */
export function isTemplate(text: string): boolean {
  return text.includes('{{');
}

/**
 * Renders a Handlebars template against a model from buildTemplateModel. HTML-escapes `{{x}}` like
 * WireMock (use `{{{x}}}` for raw output). Any compile or helper failure becomes a TemplateError
 * with a message fit for a 500 response.
 */
export function renderTemplate(template: string, model: TemplateModel): string {
  if (!isTemplate(template)) return template;
  const compiled = compileTemplate(template);
  try {
    return compiled(model);
  } catch (error) {
    if (error instanceof TemplateError) throw error;
    throw new TemplateError(`template error: ${(error as Error).message}`, { cause: error });
  }
}
