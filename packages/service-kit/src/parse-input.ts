import type { z } from 'zod';
import { HttpProblem } from './http-problem';

/**
 * Parses one input (query, body, params, header) with its schema where it enters; a failure is a
 * 400 problem listing every `{ path, message }`.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: 'query' | 'body' | 'params' | 'headers'): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => ({
    path: [where, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  throw HttpProblem.badRequest(`Invalid ${where}: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, errors);
}
