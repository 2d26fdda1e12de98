import type { StubMapping } from '@mockyard/matching';
import type { ServeEvent } from './serve-event';

/** A stub file found under mappings/: the raw JSON (one stub or `{mappings:[…]}`) and where it came from. */
export interface MappingFile {
  file: string;
  json: unknown;
}

/** Backing store of stub mappings (WireMock's `mappings/` folder). */
export interface MappingsRepo {
  loadAll(): Promise<MappingFile[]>;
  /** Writes one stub; returns the file it went to. */
  save(stub: StubMapping, file?: string): Promise<string>;
  /** Deletes the file of a stub; a file holding several stubs is rewritten without it. */
  remove(file: string, id: string): Promise<void>;
}

/** Body files (WireMock's `__files/` folder); paths are relative and never leave the folder. */
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
