import { z } from 'zod';
import { jsonPointerSegments } from '@mockyard/contracts';

const URL_KEYS = ['url', 'urlPattern', 'urlPath', 'urlPathPattern', 'urlPathTemplate'] as const;
const BODY_KEYS = ['body', 'jsonBody', 'base64Body', 'bodyFileName'] as const;

/**
 * The stub mapping as the editor checks it before sending: the basics every engine needs. The engine owns
 * the full parser and its refusal is shown as it says it.
 */
export const EditableStubSchema = z
  .looseObject({
    id: z.string().optional(),
    uuid: z.string().optional(),
    name: z.string().optional(),
    priority: z.number({ error: 'priority must be a number' }).int('priority must be an integer').min(0, 'priority must be 0 or more').optional(),
    persistent: z.boolean().optional(),
    request: z.looseObject({
      method: z
        .union(
          [
            z.string().min(1),
            z.strictObject({ oneOf: z.array(z.string().min(1)).min(1) }),
            z.strictObject({ noneOf: z.array(z.string().min(1)).min(1) }),
          ],
          { error: 'request.method must be a name such as "GET" or "ANY", or {"oneOf": ["GET", "POST"]} / {"noneOf": [...]}' },
        )
        .optional(),
    }, { error: 'request must be an object' }),
    response: z.looseObject({
      status: z.number({ error: 'response.status must be a number' }).int().min(100).max(599).optional(),
      headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
    }, { error: 'response must be an object' }),
  })
  .superRefine((stub, ctx) => {
    const urlKeys = URL_KEYS.filter((key) => key in stub.request);
    if (urlKeys.length > 1) {
      ctx.addIssue({ code: 'custom', path: ['request'], message: `use only one of ${urlKeys.join(', ')}` });
    }
    for (const key of urlKeys) {
      if (typeof stub.request[key] !== 'string') ctx.addIssue({ code: 'custom', path: ['request', key], message: `${key} must be a string` });
    }
    const bodyKeys = BODY_KEYS.filter((key) => key in stub.response);
    if (bodyKeys.length > 1) {
      ctx.addIssue({ code: 'custom', path: ['response'], message: `use only one of ${bodyKeys.join(', ')}` });
    }
  });

export type StubProblem = { path: string; message: string; from: number; to: number };

/**
 * Parses the editor text and checks it against the stub schema. Each problem carries a text range so the
 * editor can mark it: JSON syntax errors at their position, schema errors at the key they name.
 */
export function validateStubText(text: string): { stub?: Record<string, unknown>; problems: StubProblem[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const at = locateSyntaxError(message, text);
    return { problems: [{ path: '(json)', message: `invalid JSON: ${message}`, from: at, to: Math.min(text.length, at + 1) }] };
  }
  const parsed = EditableStubSchema.safeParse(value);
  if (parsed.success) return { stub: parsed.data as Record<string, unknown>, problems: [] };
  return {
    problems: parsed.error.issues.map((issue) => {
      const path = issue.path.map(String);
      const range = locateKey(text, path);
      return { path: path.join('.') || '(root)', message: issue.message, ...range };
    }),
  };
}

function locateSyntaxError(message: string, text: string): number {
  const position = /position (\d+)/.exec(message);
  if (position) return Math.min(Number(position[1]), Math.max(0, text.length - 1));
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) {
    const lines = text.split('\n');
    const line = Math.min(Number(lineColumn[1]), lines.length) - 1;
    return lines.slice(0, line).reduce((sum, l) => sum + l.length + 1, 0) + Number(lineColumn[2]) - 1;
  }
  return Math.max(0, text.length - 1);
}

/**
 * The engine's refusal as editor problems: each `{source: {pointer}, title}` (WireMock) or `{path, message}`
 * error, found either at the top of the body or under the hub's `engineResponse`, marked at the key it names.
 */
export function readEngineProblems(text: string, body: unknown): StubProblem[] {
  const record = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const nested = (record.engineResponse as { errors?: unknown } | undefined)?.errors;
  const errors = Array.isArray(nested) ? nested : Array.isArray(record.errors) ? record.errors : [];
  return errors.flatMap((error): StubProblem[] => {
    if (!error || typeof error !== 'object') return [];
    const e = error as Record<string, unknown>;
    const pointer = (e.source as { pointer?: string } | undefined)?.pointer ?? (typeof e.path === 'string' ? `/${e.path.replace(/^body\.?/, '').replace(/\./g, '/')}` : '');
    const path = jsonPointerSegments(pointer);
    // WireMock's errors carry a generic title ("Error parsing JSON") and the specific reason in detail.
    const message = String(e.message ?? e.detail ?? e.title ?? 'refused');
    return [{ path: path.join('.') || '(root)', message: `engine: ${message}`, ...locateKey(text, path) }];
  });
}

/** Finds `"key":` of the deepest path element that appears in the text (a good-enough marker position). */
function locateKey(text: string, path: string[]): { from: number; to: number } {
  for (let i = path.length - 1; i >= 0; i -= 1) {
    const needle = `"${path[i]}"`;
    const at = text.indexOf(needle);
    if (at >= 0) return { from: at, to: at + needle.length };
  }
  return { from: 0, to: Math.min(1, text.length) };
}
