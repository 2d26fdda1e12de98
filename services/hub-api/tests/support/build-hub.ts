import { execFileSync } from 'node:child_process';
import { mkdirSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REPO_ROOT = join(__dirname, '..', '..', '..', '..');

/**
 * Builds services/hub-api (and the packages it references) with `tsc -b`, one test file at a time:
 * jest runs files in parallel and two builds must not write the same outputs at once.
 */
export async function buildHub(): Promise<void> {
  const lock = join(tmpdir(), 'mockyard-hub-api-build.lock');
  const deadline = Date.now() + 120000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`could not take ${lock} within 120 s (remove it if no build is running)`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    execFileSync(join(REPO_ROOT, 'node_modules', '.bin', 'tsc'), ['-b', 'services/hub-api'], { cwd: REPO_ROOT, stdio: 'pipe' });
  } finally {
    rmdirSync(lock);
  }
}
