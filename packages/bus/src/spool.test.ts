import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Spool } from './spool';

describe('Spool', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'spool-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads lines back in the order they were appended', () => {
    const spool = new Spool({ dir, maxBytes: 1024 });
    spool.open();
    for (const n of [1, 2, 3]) expect(spool.tryAppend(`{"n":${n}}`)).toBe(true);
    expect(spool.readLines(10).map((l) => l.line)).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
    expect(spool.readLines(2).map((l) => l.line)).toEqual(['{"n":1}', '{"n":2}']);
    spool.close();
  });

  it('refuses an append that would pass maxBytes of unreplayed data', () => {
    const spool = new Spool({ dir, maxBytes: 20 });
    spool.open();
    expect(spool.tryAppend('x'.repeat(9))).toBe(true);
    expect(spool.tryAppend('y'.repeat(9))).toBe(true);
    expect(spool.tryAppend('z')).toBe(false);
    expect(spool.pendingBytes).toBe(20);
    spool.close();
  });

  it('commits a prefix, resumes there after a reopen, and truncates once everything is replayed', () => {
    const first = new Spool({ dir, maxBytes: 1024 });
    first.open();
    first.tryAppend('a');
    first.tryAppend('b');
    first.tryAppend('c');
    const [a] = first.readLines(1);
    first.commit(a.endOffset);
    first.close();

    const second = new Spool({ dir, maxBytes: 1024 });
    second.open();
    const rest = second.readLines(10);
    expect(rest.map((l) => l.line)).toEqual(['b', 'c']);
    second.commit(rest[1].endOffset);
    expect(second.hasPending).toBe(false);
    expect(statSync(second.path).size).toBe(0);
    second.close();
  });

  it('frees space for new appends as lines are replayed', () => {
    const spool = new Spool({ dir, maxBytes: 4 });
    spool.open();
    expect(spool.tryAppend('a')).toBe(true);
    expect(spool.tryAppend('b')).toBe(true);
    expect(spool.tryAppend('c')).toBe(false);
    spool.commit(spool.readLines(1)[0].endOffset);
    expect(spool.tryAppend('c')).toBe(true);
    expect(spool.readLines(10).map((l) => l.line)).toEqual(['b', 'c']);
    spool.close();
  });

  it('terminates a partial last line left by a crash so later lines stay separate', () => {
    const spool = new Spool({ dir, maxBytes: 1024 });
    appendFileSync(spool.path, '{"ok":1}\n{"broken');
    spool.open();
    spool.tryAppend('{"ok":2}');
    expect(spool.readLines(10).map((l) => l.line)).toEqual(['{"ok":1}', '{"broken', '{"ok":2}']);
    expect(readFileSync(spool.path, 'utf8').endsWith('\n')).toBe(true);
    spool.close();
  });

  it('reads lines longer than one read chunk', () => {
    const spool = new Spool({ dir, maxBytes: 8 * 1024 * 1024 });
    spool.open();
    const long = 'x'.repeat(1024 * 1024 + 17);
    spool.tryAppend('first');
    spool.tryAppend(long);
    spool.tryAppend('last');
    expect(spool.readLines(10).map((l) => l.line.length)).toEqual([5, long.length, 4]);
    spool.close();
  });
});
