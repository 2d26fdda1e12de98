import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Spool } from '@mockyard/bus';
import type { Logger } from '@mockyard/service-kit';

const SPOOL_NAME = 'traffic-spool';
const WORKER_SPOOL = /^traffic-spool-(\d+)\.jsonl$/;

/** The spool file stem of worker `index`: worker 0 (and a single-process gateway) keeps the plain name. */
export function spoolNameOf(index: number): string {
  return index === 0 ? SPOOL_NAME : `${SPOOL_NAME}-${index}`;
}

/**
 * Worker `index` of `count` opens its own spool and takes over the spools of workers that no longer
 * exist (an earlier run had more workers: index ≥ count, shared out by index modulo count), appending
 * their unreplayed lines to its own so they are replayed like its own. Returns the open spool.
 */
export function openWorkerSpool(options: { dir: string; maxBytes: number; index: number; count: number; logger: Logger }): Spool {
  const spool = new Spool({ dir: options.dir, maxBytes: options.maxBytes, name: spoolNameOf(options.index) });
  spool.open();
  for (const orphan of orphanIndexes(options.dir, options.count).filter((i) => i % options.count === options.index)) {
    const from = new Spool({ dir: options.dir, maxBytes: Number.MAX_SAFE_INTEGER, name: spoolNameOf(orphan) });
    from.open();
    let moved = 0;
    let dropped = 0;
    for (let lines = from.readLines(500); lines.length > 0; lines = from.readLines(500)) {
      for (const { line } of lines) {
        if (spool.tryAppend(line)) moved += 1;
        else dropped += 1;
      }
      from.commit(lines[lines.length - 1].endOffset);
    }
    from.close();
    for (const suffix of ['jsonl', 'offset']) rmSync(join(options.dir, `${spoolNameOf(orphan)}.${suffix}`), { force: true });
    options.logger[dropped ? 'warn' : 'info']({ from: orphan, moved, dropped }, 'took over the spool of a worker that no longer exists');
  }
  return spool;
}

function orphanIndexes(dir: string, count: number): number[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const match = WORKER_SPOOL.exec(name);
    return match && Number(match[1]) >= count ? [Number(match[1])] : [];
  });
}
