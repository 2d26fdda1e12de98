import type { z } from 'zod';
import { ApiError } from './api-error';

export const DEFAULT_TIMEOUT_MS = 10_000;

export type RequestOptions = {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
};

/**
 * One HTTP call with a timeout (so an engine that is down shows as an error, never as a spinner forever),
 * the error body kept for display, and the answer parsed by `schema` where it enters.
 */
export async function requestJson<T>(url: string, schema: z.ZodType<T>, options: RequestOptions = {}): Promise<T> {
  const body = await requestRaw(url, options);
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ApiError(url, 200, body, `unexpected answer from ${url}: ${issue?.path.join('.') || '(root)'} ${issue?.message ?? ''}`);
  }
  return parsed.data;
}

export async function requestRaw(url: string, options: RequestOptions = {}): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  let payload: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(url, { method: options.method ?? 'GET', headers, body: payload, signal, cache: 'no-store' });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const reason = timeout.aborted ? `no answer within ${(options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000} s` : 'the server could not be reached';
    throw new ApiError(url, 0, reason);
  }
  const text = await response.text();
  const parsedBody = parseBodyText(text, response.headers.get('content-type'));
  if (!response.ok) throw new ApiError(url, response.status, parsedBody);
  return parsedBody;
}

function parseBodyText(text: string, contentType: string | null): unknown {
  if (!text) return null;
  if (contentType?.includes('json') || /^[\s]*[[{]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}
