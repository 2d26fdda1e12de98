import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@mockyard/service-kit';
import { Spool } from '@mockyard/bus';
import { openWorkerSpool, spoolNameOf } from './worker-spool';

const logger = createLogger({ service: 'test', level: 'silent' });
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'worker-spool-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function spoolWith(index: number, lines: string[], replayed = 0): void {
  const spool = new Spool({ dir, maxBytes: 1 << 20, name: spoolNameOf(index) });
  spool.open();
  for (const line of lines) spool.tryAppend(line);
  if (replayed) spool.commit(spool.readLines(replayed).at(-1)!.endOffset);
  spool.close();
}

const pending = (spool: Spool) => spool.readLines(100).map((l) => l.line);

describe('openWorkerSpool', () => {
  it('gives worker 0 the single-process spool name and the others their own', () => {
    expect(spoolNameOf(0)).toBe('traffic-spool');
    expect(spoolNameOf(3)).toBe('traffic-spool-3');
  });

  it('keeps what a worker left in its own spool', () => {
    spoolWith(1, ['{"id":"a"}', '{"id":"b"}'], 1);
    const spool = openWorkerSpool({ dir, maxBytes: 1 << 20, index: 1, count: 2, logger });
    expect(pending(spool)).toEqual(['{"id":"b"}']);
  });

  it('takes over the unreplayed lines of workers beyond the count, shared by index modulo count, and deletes their files', () => {
    spoolWith(2, ['{"id":"w2-done"}', '{"id":"w2"}'], 1);
    spoolWith(3, ['{"id":"w3"}']);
    spoolWith(5, ['{"id":"w5"}']);
    const zero = openWorkerSpool({ dir, maxBytes: 1 << 20, index: 0, count: 2, logger });
    const one = openWorkerSpool({ dir, maxBytes: 1 << 20, index: 1, count: 2, logger });
    expect(pending(zero)).toEqual(['{"id":"w2"}']);
    expect(pending(one).sort()).toEqual(['{"id":"w3"}', '{"id":"w5"}']);
    for (const i of [2, 3, 5]) expect(existsSync(join(dir, `${spoolNameOf(i)}.jsonl`))).toBe(false);
  });

  it('leaves the spools of workers that still exist alone', () => {
    spoolWith(1, ['{"id":"w1"}']);
    const zero = openWorkerSpool({ dir, maxBytes: 1 << 20, index: 0, count: 2, logger });
    expect(pending(zero)).toEqual([]);
    expect(existsSync(join(dir, 'traffic-spool-1.jsonl'))).toBe(true);
  });
});
