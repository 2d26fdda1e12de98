import type { ServerResponse } from 'node:http';

/**
 * Resolves when `res` can take more writes, or when it closed (a client that went away never drains: a
 * writer waiting for `drain` alone would wait forever, holding what it meant to write).
 */
export function waitForDrain(res: ServerResponse): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}
