import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, renameSync, writeFileSync, writeSync, readFileSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';

export interface SpoolOptions {
  /** Folder of the spool file (created when missing). */
  dir: string;
  /** Upper bound of unreplayed bytes; an append that would pass it is refused (the caller drops and counts). */
  maxBytes: number;
  /** File name stem; `<name>.jsonl` holds the lines, `<name>.offset` the replay position. */
  name?: string;
}

/** One line read back from the spool, with the file offset just past it (what `commit` takes). */
export interface SpoolLine {
  line: string;
  endOffset: number;
}

const READ_CHUNK_BYTES = 1024 * 1024;
const NEWLINE = Buffer.from('\n');

/**
 * A bounded, append-only JSON-lines file for traffic events that could not reach Redis. Lines are read
 * back in the order they were written from a persisted offset, so a restart resumes where replay stopped;
 * when everything was replayed the file is truncated. All I/O is synchronous: the spool is only used
 * while Redis is unreachable, and a synchronous append keeps the order of events without a queue.
 */
export class Spool {
  readonly path: string;
  private readonly offsetPath: string;
  private fd: number | undefined;
  private sizeBytes = 0;
  private readOffset = 0;

  constructor(private readonly options: SpoolOptions) {
    const name = options.name ?? 'traffic-spool';
    this.path = join(options.dir, `${name}.jsonl`);
    this.offsetPath = join(options.dir, `${name}.offset`);
  }

  /** Opens (or creates) the file and restores the replay offset left by an earlier process. */
  open(): void {
    if (this.fd !== undefined) return;
    mkdirSync(this.options.dir, { recursive: true });
    this.fd = openSync(this.path, existsSync(this.path) ? 'r+' : 'w+');
    this.sizeBytes = fstatSync(this.fd).size;
    this.readOffset = this.readStoredOffset();
    if (this.sizeBytes > 0 && !this.endsWithNewline()) {
      // A crash mid-append left a partial line: terminate it so it stays one (unparseable) line.
      writeSync(this.fd, '\n', this.sizeBytes);
      this.sizeBytes += 1;
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }

  /** Bytes written but not yet replayed. */
  get pendingBytes(): number {
    return this.sizeBytes - this.readOffset;
  }

  get hasPending(): boolean {
    return this.pendingBytes > 0;
  }

  /** Appends one line unless that would pass `maxBytes` of unreplayed data; says whether it was written. */
  tryAppend(line: string | Buffer): boolean {
    const fd = this.requireOpen();
    const data = typeof line === 'string' ? Buffer.from(`${line}\n`, 'utf8') : Buffer.concat([line, NEWLINE]);
    if (this.pendingBytes + data.length > this.options.maxBytes) return false;
    writeSync(fd, data, 0, data.length, this.sizeBytes);
    this.sizeBytes += data.length;
    return true;
  }

  /** Up to `maxLines` complete lines from the replay offset, oldest first. */
  readLines(maxLines: number): SpoolLine[] {
    const fd = this.requireOpen();
    const lines: SpoolLine[] = [];
    let position = this.readOffset;
    let carry = Buffer.alloc(0);
    while (lines.length < maxLines && position < this.sizeBytes) {
      const length = Math.min(READ_CHUNK_BYTES, this.sizeBytes - position);
      const chunk = Buffer.allocUnsafe(length);
      const read = readSync(fd, chunk, 0, length, position);
      if (read <= 0) break;
      const data = carry.length ? Buffer.concat([carry, chunk.subarray(0, read)]) : chunk.subarray(0, read);
      const dataStart = position - carry.length;
      position += read;
      let start = 0;
      for (let nl = data.indexOf(10, start); nl !== -1 && lines.length < maxLines; nl = data.indexOf(10, start)) {
        lines.push({ line: data.toString('utf8', start, nl), endOffset: dataStart + nl + 1 });
        start = nl + 1;
      }
      if (lines.length >= maxLines) break;
      carry = Buffer.from(data.subarray(start));
    }
    return lines;
  }

  /** Marks everything before `endOffset` as replayed; truncates the file once all of it is. */
  commit(endOffset: number): void {
    const fd = this.requireOpen();
    this.readOffset = Math.min(Math.max(endOffset, this.readOffset), this.sizeBytes);
    if (this.readOffset === this.sizeBytes) {
      ftruncateSync(fd, 0);
      this.sizeBytes = 0;
      this.readOffset = 0;
    }
    this.storeOffset();
  }

  private requireOpen(): number {
    if (this.fd === undefined) throw new Error(`spool ${this.path} is not open`);
    return this.fd;
  }

  private endsWithNewline(): boolean {
    const last = Buffer.alloc(1);
    readSync(this.requireOpen(), last, 0, 1, this.sizeBytes - 1);
    return last[0] === 10;
  }

  private readStoredOffset(): number {
    if (!existsSync(this.offsetPath)) return 0;
    const stored = Number(readFileSync(this.offsetPath, 'utf8').trim());
    return Number.isInteger(stored) && stored >= 0 && stored <= this.sizeBytes ? stored : 0;
  }

  private storeOffset(): void {
    const tmp = `${this.offsetPath}.tmp`;
    writeFileSync(tmp, String(this.readOffset));
    renameSync(tmp, this.offsetPath);
  }
}
