import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { HttpProblem } from './http-problem';

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
 * wrong → 401 problem+json with a `WWW-Authenticate` naming the header. Both sides are hashed first so the
 * comparison takes the same time whatever the length or content of the guess. A blank key throws here
 * (the configs refuse one already): it would otherwise run open while looking protected.
 */
export function requireApiKey({ apiKey, header, setting }: ApiKeyGuardOptions) {
  if (apiKey === undefined) return (_req: Request, _res: Response, next: NextFunction) => next();
  if (apiKey.trim() === '') throw new Error(`${setting} is blank: unset it to run without a key`);
  const expected = digest(apiKey);
  const challenge = { 'WWW-Authenticate': `ApiKey header="${header}", Bearer realm="mockyard"` };
  return (req: Request, _res: Response, next: NextFunction) => {
    const given = presentedKey(req, header);
    if (given === undefined) return next(new HttpProblem(401, 'unauthorized', `API key required: send it in the ${header} header (or Authorization: Bearer <key>)`, { headers: challenge }));
    if (!timingSafeEqual(digest(given), expected)) return next(new HttpProblem(401, 'unauthorized', 'API key is not valid', { headers: challenge }));
    next();
  };
}

function presentedKey(req: Request, header: string): string | undefined {
  const value = req.header(header);
  if (value !== undefined && value !== '') return value;
  const auth = req.header('authorization');
  const match = auth ? /^Bearer\s+(.+)$/i.exec(auth.trim()) : null;
  return match ? match[1] : undefined;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
