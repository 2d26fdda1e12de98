import { mkdir, readdir, readFile, rm, writeFile, rename } from 'node:fs/promises';
import path from 'node:path';
import type { StubMapping } from '@mockyard/matching';
import type { MappingFile, MappingsRepo } from '../domain/ports';

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

/** Stub mappings as JSON files in `<root>/mappings` (WireMock's layout; one stub or `{mappings:[…]}` per file). */
export function createFileMappingsRepo(rootDir: string): MappingsRepo & { readonly dir: string } {
  const dir = path.resolve(rootDir, 'mappings');
  return {
    dir,
    async loadAll(): Promise<MappingFile[]> {
      const out: MappingFile[] = [];
      for (const file of await listJsonFiles(dir)) {
        try {
          out.push({ file, json: JSON.parse(await readFile(file, 'utf8')) });
        } catch (err) {
          out.push({ file, json: { __unreadable: (err as Error).message } });
        }
      }
      return out;
    },
    async save(stub: StubMapping, file?: string) {
      await mkdir(dir, { recursive: true });
      const target = file ?? path.join(dir, `${(stub.name ?? 'mapping').replace(/[^\w-]+/g, '-').slice(0, 60)}-${stub.id}.json`);
      if (file) {
        const existing = JSON.parse(await readFile(file, 'utf8').catch(() => 'null')) as { mappings?: StubMapping[] } | null;
        if (existing && Array.isArray(existing.mappings)) {
          const mappings = existing.mappings.map((m) => ((m.id ?? m.uuid) === stub.id ? stub : m));
          await writeAtomically(file, JSON.stringify({ ...existing, mappings }, null, 2));
          return file;
        }
      }
      const { insertionIndex: _i, ...json } = stub;
      await writeAtomically(target, JSON.stringify(json, null, 2));
      return target;
    },
    async remove(file: string, id: string) {
      const existing = JSON.parse(await readFile(file, 'utf8').catch(() => 'null')) as { mappings?: StubMapping[] } | null;
      if (existing && Array.isArray(existing.mappings)) {
        const mappings = existing.mappings.filter((m) => (m.id ?? m.uuid) !== id);
        if (mappings.length) return writeAtomically(file, JSON.stringify({ ...existing, mappings }, null, 2));
      }
      await rm(file, { force: true });
    },
  };
}
