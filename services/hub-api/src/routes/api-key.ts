import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { HttpProblem } from '@mockyard/service-kit';

export const API_KEY_HEADER = 'X-Hub-Api-Key';

/**
 * Requires the configured key in X-Hub-Api-Key or `Authorization: Bearer <key>`. Both sides are
 * hashed first so the comparison takes the same time whatever the length or content of the guess.
 * No key configured = no check (a blank key is refused by the config before we get here).
 */
export function requireApiKey(apiKey: string | undefined) {
  if (apiKey === undefined) return (_req: Request, _res: Response, next: NextFunction) => next();
  if (apiKey.trim() === '') throw new Error('hub.security.api-key is blank: unset it to run without a key');
  const expected = digest(apiKey);
  return (req: Request, _res: Response, next: NextFunction) => {
    const given = presentedKey(req);
    if (given === undefined) return next(HttpProblem.unauthorized(`API key required: send it in the ${API_KEY_HEADER} header (or Authorization: Bearer <key>)`));
    if (!timingSafeEqual(digest(given), expected)) return next(HttpProblem.unauthorized('API key is not valid'));
    next();
  };
}

function presentedKey(req: Request): string | undefined {
  const header = req.header(API_KEY_HEADER);
  if (header !== undefined && header !== '') return header;
  const auth = req.header('authorization');
  const match = auth ? /^Bearer\s+(.+)$/i.exec(auth.trim()) : null;
  return match ? match[1] : undefined;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
