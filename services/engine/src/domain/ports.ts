import type { StubMapping } from '@mockyard/matching';
import type { ServeEvent } from './serve-event';

/**
 * Where a stub is on disk: its file and, for a file of several stubs (`{mappings:[…]}`), its position in that
 * array, which is how an entry without an id (it gets a new random id at every load) is found again.
 */
export interface MappingLocation {
  file: string;
  index?: number;
}

/** One stub's raw JSON as found under mappings/, and where. */
export interface MappingEntry {
  at: MappingLocation;
  json: unknown;
}

/** Backing store of stub mappings (WireMock's `mappings/` folder). */
export interface MappingsRepo {
  /** Every stub found under mappings/, unchecked: one per file, or one per entry of a `{mappings:[…]}` file. */
  loadAll(): Promise<MappingEntry[]>;
  /**
   * Writes one stub where it is (`at`) or, without `at`, to a file of its own; returns where it went. An entry
   * of a multi-stub file is replaced in place (found by id, else by position when that entry has no id).
   */
  save(stub: StubMapping, at?: MappingLocation): Promise<MappingLocation>;
  /**
   * Deletes a stub's file, or rewrites a multi-stub file without its entry (found as by save). Returns the
   * position the entry had in a multi-stub file, so the positions of later stubs of that file can move up.
   */
  remove(at: MappingLocation, id: string): Promise<number | undefined>;
}

/** A body file path that escapes __files (`../x`, absolute paths) or is empty. */
export class BodyFilePathError extends Error {
  constructor(relative: string) {
    super(`body file path "${relative}" must stay inside __files`);
    this.name = 'BodyFilePathError';
  }
}

/** Body files (WireMock's `__files/` folder); paths are relative and never leave the folder (BodyFilePathError). */
export interface BodyFiles {
  read(path: string): Promise<Buffer>;
  write(path: string, content: Buffer): Promise<void>;
  remove(path: string): Promise<boolean>;
  list(): Promise<string[]>;
}

/** Where served requests are published (the traffic stream); must never throw or block serving. */
export interface TrafficSink {
  publish(event: ServeEvent): void;
}

export const noTrafficSink: TrafficSink = { publish: () => undefined };
