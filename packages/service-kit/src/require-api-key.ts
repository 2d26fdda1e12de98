import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { HttpProblem } from './http-problem';

/**
 * Whether a presented key is the configured one: both sides SHA-256 hashed first, so the comparison takes
 * the same time whatever the length or content of the guess. A blank configured key throws (`setting` names
 * it): it would otherwise run open while looking protected. The one comparison of every key Mockyard checks
 * (the hub's, the traffic log's, the engines' admin key, the gateway's proxy key).
 */
export function createKeyMatcher(apiKey: string, setting: string): (given: string | undefined) => boolean {
  if (apiKey.trim() === '') throw new Error(`${setting} is blank: unset it to run without a key`);
  const expected = digest(apiKey);
  return (given) => given !== undefined && given !== '' && timingSafeEqual(digest(given), expected);
}

/** The key a request presents in `header`, else as `Authorization: Bearer <key>`; undefined when neither. */
export function presentedApiKey(req: Request, header: string): string | undefined {
  const value = req.header(header);
  if (value !== undefined && value !== '') return value;
  const auth = req.header('authorization');
  const match = auth ? /^Bearer\s+(.+)$/i.exec(auth.trim()) : null;
  return match ? match[1] : undefined;
}

export interface ApiKeyGuardOptions {
  /** The configured key; undefined = no check (local development, every spec's default). */
  apiKey: string | undefined;
  /** The header the key may come in besides `Authorization: Bearer` (X-Hub-Api-Key, X-Api-Key). */
  header: string;
  /** The setting that holds the key, named in the error a blank one raises at start. */
  setting: string;
}

/**
 * Express middleware requiring the configured key in `header` or `Authorization: Bearer <key>`; missing or
 * wrong → 401 problem+json with a `WWW-Authenticate` naming the header.
 */
export function requireApiKey({ apiKey, header, setting }: ApiKeyGuardOptions) {
  if (apiKey === undefined) return (_req: Request, _res: Response, next: NextFunction) => next();
  const matches = createKeyMatcher(apiKey, setting);
  const challenge = { 'WWW-Authenticate': `ApiKey header="${header}", Bearer realm="mockyard"` };
  return (req: Request, _res: Response, next: NextFunction) => {
    const given = presentedApiKey(req, header);
    if (given === undefined) return next(new HttpProblem(401, 'unauthorized', `API key required: send it in the ${header} header (or Authorization: Bearer <key>)`, { headers: challenge }));
    if (!matches(given)) return next(new HttpProblem(401, 'unauthorized', 'API key is not valid', { headers: challenge }));
    next();
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
