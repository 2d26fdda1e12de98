import { mkdir, readdir, readFile, rm, writeFile, rename } from 'node:fs/promises';
import path from 'node:path';
import type { StubMapping } from '@mockyard/matching';
import type { MappingEntry, MappingLocation, MappingsRepo } from '../domain/ports';

async function listJsonFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return entries
    .filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.json'))
    .map((e) => path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name))
    .sort();
}

async function writeAtomically(file: string, content: string) {
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, content);
  await rename(temp, file);
}

type MultiMappingFile = Record<string, unknown> & { mappings: unknown[] };

/**
 * The file's JSON when it is a multi-stub file (`{mappings:[…]}`), else undefined (one stub, or gone). A file
 * that no longer parses throws: overwriting or deleting it could lose what someone is editing.
 */
async function readMultiMappingFile(file: string): Promise<MultiMappingFile | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const json: unknown = JSON.parse(text);
  return isMultiMappingFile(json) ? json : undefined;
}

/** A file of several stubs (`{mappings:[…]}`) rather than one. */
function isMultiMappingFile(json: unknown): json is MultiMappingFile {
  return typeof json === 'object' && json !== null && Array.isArray((json as { mappings?: unknown }).mappings);
}

/** The entry's id as stored ids are (lower case), or undefined when it has none. */
function entryIdOf(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const id = (entry as { id?: unknown }).id ?? (entry as { uuid?: unknown }).uuid;
  return typeof id === 'string' ? id.toLowerCase() : undefined;
}

/**
 * Position of a stub in a multi-stub file: the entry with its id (in any case), else the entry at the position it
 * was loaded from when that entry has no id (it was given a random one at load); -1 when it is not there.
 */
function findEntry(mappings: unknown[], id: string, index: number | undefined): number {
  const byId = mappings.findIndex((entry) => entryIdOf(entry) === id);
  if (byId !== -1) return byId;
  if (index !== undefined && index < mappings.length && typeof mappings[index] === 'object' && mappings[index] !== null && entryIdOf(mappings[index]) === undefined) return index;
  return -1;
}

function toFileJson(stub: StubMapping) {
  const { insertionIndex: _i, ...json } = stub;
  return json;
}

/** Stub mappings as JSON files in `<root>/mappings` (WireMock's layout; one stub or `{mappings:[…]}` per file). */
export function createFileMappingsRepo(rootDir: string): MappingsRepo & { readonly dir: string } {
  const dir = path.resolve(rootDir, 'mappings');
  return {
    dir,
    async loadAll(): Promise<MappingEntry[]> {
      const out: MappingEntry[] = [];
      for (const file of await listJsonFiles(dir)) {
        let json: unknown;
        try {
          json = JSON.parse(await readFile(file, 'utf8'));
        } catch (err) {
          json = { __unreadable: (err as Error).message };
        }
        // an entry's position finds it again when it has no id (it gets a new random one at every load)
        if (isMultiMappingFile(json)) json.mappings.forEach((entry, index) => out.push({ at: { file, index }, json: entry }));
        else out.push({ at: { file }, json });
      }
      return out;
    },
    async save(stub: StubMapping, at?: MappingLocation): Promise<MappingLocation> {
      await mkdir(dir, { recursive: true });
      if (at) {
        const multi = await readMultiMappingFile(at.file);
        // a stub of its own file: written over it; an entry of a file that is no longer a multi-stub one is gone
        if (!multi && at.index === undefined) {
          await writeAtomically(at.file, JSON.stringify(toFileJson(stub), null, 2));
          return { file: at.file };
        }
        if (multi) {
          const index = findEntry(multi.mappings, stub.id, at.index);
          if (index !== -1) {
            const mappings = multi.mappings.map((entry, i) => (i === index ? toFileJson(stub) : entry));
            await writeAtomically(at.file, JSON.stringify({ ...multi, mappings }, null, 2));
            return { file: at.file, index };
          }
        }
        // its entry is no longer in that file (edited meanwhile): the stub gets a file of its own
      }
      const target = path.join(dir, `${(stub.name ?? 'mapping').replace(/[^\w-]+/g, '-').slice(0, 60)}-${stub.id}.json`);
      await writeAtomically(target, JSON.stringify(toFileJson(stub), null, 2));
      return { file: target };
    },
    async remove(at: MappingLocation, id: string): Promise<number | undefined> {
      const multi = await readMultiMappingFile(at.file);
      if (!multi) {
        // an entry of a file that is no longer a multi-stub one is gone already: whatever is there now stays
        if (at.index === undefined) await rm(at.file, { force: true });
        return undefined;
      }
      const index = findEntry(multi.mappings, id, at.index);
      if (index === -1) return undefined;
      const mappings = multi.mappings.filter((_, i) => i !== index);
      if (mappings.length) await writeAtomically(at.file, JSON.stringify({ ...multi, mappings }, null, 2));
      else await rm(at.file, { force: true });
      return index;
    },
  };
}
