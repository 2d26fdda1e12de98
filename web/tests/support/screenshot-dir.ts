import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** tests/.artifacts by default; docs/screenshots (shown in the README) with UPDATE_SCREENSHOTS=1. */
export function prepareScreenshotDir(): string {
  const dir = process.env.UPDATE_SCREENSHOTS ? join(__dirname, '..', '..', 'docs', 'screenshots') : join(__dirname, '..', '.artifacts');
  mkdirSync(dir, { recursive: true });
  return dir;
}
