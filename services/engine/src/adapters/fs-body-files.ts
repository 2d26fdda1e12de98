import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BodyFiles } from '../domain/ports';

/** A body file path that escapes __files (`../x`, absolute paths) or is empty. */
export class BodyFilePathError extends Error {
  constructor(relative: string) {
    super(`body file path "${relative}" must stay inside __files`);
    this.name = 'BodyFilePathError';
  }
}

/** Resolves a relative body file path inside `dir`, rejecting traversal. */
export function resolveInside(dir: string, relative: string): string {
  if (!relative || relative.includes('\0') || path.isAbsolute(relative)) throw new BodyFilePathError(relative);
  const full = path.resolve(dir, relative);
  if (!full.startsWith(dir + path.sep)) throw new BodyFilePathError(relative);
  return full;
}

/** WireMock's `__files` folder under the root directory. */
export function createFsBodyFiles(rootDir: string): BodyFiles & { readonly dir: string } {
  const dir = path.resolve(rootDir, '__files');
  return {
    dir,
    read: (relative) => readFile(resolveInside(dir, relative)),
    async write(relative, content) {
      const full = resolveInside(dir, relative);
      await mkdir(path.dirname(full), { recursive: true });
      await writeFile(full, content);
    },
    async remove(relative) {
      const full = resolveInside(dir, relative);
      try {
        await rm(full);
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw err;
      }
    },
    async list() {
      try {
        const entries = await readdir(dir, { withFileTypes: true, recursive: true });
        return entries
          .filter((e) => e.isFile())
          .map((e) => path.relative(dir, path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name)).split(path.sep).join('/'))
          .sort();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw err;
      }
    },
  };
}
