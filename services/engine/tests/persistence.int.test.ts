import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { call, startTestEngine } from './engine-harness';

describe('root directory (mappings/ and __files/)', () => {
  it('loads WireMock-layout files at start-up, keeps persistent stubs across a restart and resets to disk', async () => {
    const first = await startTestEngine();
    const root = first.rootDir;
    await mkdir(path.join(root, 'mappings'), { recursive: true });
    await writeFile(path.join(root, 'mappings', 'from-disk.json'), JSON.stringify({ request: { urlPath: '/disk' }, response: { body: 'disk' } }));
    await writeFile(
      path.join(root, 'mappings', 'several.json'),
      JSON.stringify({ mappings: [{ request: { urlPath: '/m1' }, response: { body: 'm1' } }, { request: { urlPath: '/m2' }, response: { body: 'm2' } }] }),
    );
    await writeFile(path.join(root, 'mappings', 'broken.json'), '{ not json');
    await call(first.url, 'POST', '/__admin/mappings/reset');
    expect((await call(first.url, 'GET', '/disk')).text).toBe('disk');
    expect((await call(first.url, 'GET', '/m2')).text).toBe('m2');

    await call(first.url, 'POST', '/__admin/mappings', { request: { urlPath: '/kept' }, response: { body: 'kept' }, persistent: true });
    await call(first.url, 'POST', '/__admin/mappings', { request: { urlPath: '/memory' }, response: { body: 'memory' } });
    await first.stop();

    const second = await startTestEngine({ rootDir: root });
    try {
      expect((await call(second.url, 'GET', '/kept')).text).toBe('kept');
      expect((await call(second.url, 'GET', '/disk')).text).toBe('disk');
      expect((await call(second.url, 'GET', '/memory')).status).toBe(404);

      await call(second.url, 'POST', '/__admin/mappings', { request: { urlPath: '/temp' }, response: { body: 'temp' } });
      await call(second.url, 'POST', '/__admin/mappings/reset');
      expect((await call(second.url, 'GET', '/temp')).status).toBe(404);
      expect((await call(second.url, 'GET', '/kept')).status).toBe(200);

      await call(second.url, 'POST', '/__admin/mappings', { request: { urlPath: '/saved' }, response: { body: 'saved' } });
      await call(second.url, 'POST', '/__admin/mappings/save');
      const files = await readdir(path.join(root, 'mappings'));
      const contents = await Promise.all(files.map((f) => readFile(path.join(root, 'mappings', f), 'utf8')));
      expect(contents.some((c) => c.includes('/saved'))).toBe(true);
    } finally {
      await second.stop({ removeRoot: true });
    }
  });

  it("resets scenarios and clears the journal on /mappings/reset, as WireMock's resetToDefaultMappings does", async () => {
    const engine = await startTestEngine();
    try {
      // on disk, so the scenario is still there after the reset
      const base = { scenarioName: 'cart', persistent: true, request: { method: 'GET', urlPath: '/cart' } };
      await call(engine.url, 'POST', '/__admin/mappings', { ...base, requiredScenarioState: 'Started', newScenarioState: 'filled', response: { body: 'empty' } });
      await call(engine.url, 'POST', '/__admin/mappings', { ...base, requiredScenarioState: 'filled', response: { body: 'one item' } });
      await call(engine.url, 'POST', '/__admin/mappings', { request: { urlPath: '/memory' }, response: { body: 'memory' } });
      expect((await call(engine.url, 'GET', '/cart')).text).toBe('empty');
      expect((await call(engine.url, 'GET', '/__admin/scenarios')).json().scenarios[0].state).toBe('filled');
      expect((await call(engine.url, 'GET', '/__admin/requests')).json().meta.total).toBe(1);

      expect((await call(engine.url, 'POST', '/__admin/mappings/reset')).status).toBe(200);
      expect((await call(engine.url, 'GET', '/__admin/scenarios')).json().scenarios).toEqual([expect.objectContaining({ name: 'cart', state: 'Started' })]);
      expect((await call(engine.url, 'GET', '/__admin/requests')).json()).toMatchObject({ requests: [], meta: { total: 0 } });
      expect((await call(engine.url, 'GET', '/__admin/mappings')).json().meta.total).toBe(2);
      expect((await call(engine.url, 'GET', '/memory')).status).toBe(404);
      expect((await call(engine.url, 'GET', '/cart')).text).toBe('empty');
    } finally {
      await engine.stop({ removeRoot: true });
    }
  });

  it('deletes the file of a persistent stub when the stub is deleted', async () => {
    const engine = await startTestEngine();
    try {
      const id = (await call(engine.url, 'POST', '/__admin/mappings', { request: { urlPath: '/p' }, response: {}, persistent: true })).json().id;
      const dir = path.join(engine.rootDir, 'mappings');
      expect((await readdir(dir)).some((f) => f.includes(id))).toBe(true);
      await call(engine.url, 'DELETE', `/__admin/mappings/${id}`);
      expect((await readdir(dir)).some((f) => f.includes(id))).toBe(false);
    } finally {
      await engine.stop({ removeRoot: true });
    }
  });

  it('manages body files and rejects paths that leave __files', async () => {
    const engine = await startTestEngine();
    try {
      expect((await call(engine.url, 'PUT', '/__admin/files/a/b.txt', 'content')).status).toBe(200);
      expect((await call(engine.url, 'GET', '/__admin/files')).json()).toEqual(['a/b.txt']);
      expect((await call(engine.url, 'GET', '/__admin/files/a/b.txt')).text).toBe('content');
      expect((await call(engine.url, 'GET', '/__admin/files/a%2F..%2F..%2Fmappings%2Fx.json')).status).toBe(400);
      expect((await call(engine.url, 'DELETE', '/__admin/files/a/b.txt')).status).toBe(200);
      expect((await call(engine.url, 'GET', '/__admin/files/a/b.txt')).status).toBe(404);
      const escaping = await call(engine.url, 'POST', '/__admin/mappings', { request: { urlPath: '/escape' }, response: { bodyFileName: '../../etc/passwd' } });
      expect(escaping.status).toBe(422);
      expect(escaping.json().errors[0].source.pointer).toBe('/response/bodyFileName');
      // a templated name is checked when it is rendered
      await call(engine.url, 'POST', '/__admin/mappings', { request: { urlPath: '/escape' }, response: { bodyFileName: '{{request.query.f}}', transformers: ['response-template'] } });
      expect((await call(engine.url, 'GET', '/escape?f=../../etc/passwd')).status).toBe(500);
    } finally {
      await engine.stop({ removeRoot: true });
    }
  });
});

describe('a failing mappings folder', () => {
  it('answers 500 and keeps the previous stub when a persistent stub cannot be written', async () => {
    const engine = await startTestEngine();
    try {
      // a file where the mappings folder should be makes every write fail
      await writeFile(path.join(engine.rootDir, 'mappings'), 'not a folder');
      const res = await call(engine.url, 'POST', '/__admin/mappings', { request: { urlPath: '/p' }, response: {}, persistent: true });
      expect(res.status).toBe(500);
      expect((await call(engine.url, 'GET', '/__admin/mappings')).json().meta.total).toBe(0);
      expect((await call(engine.url, 'POST', '/__admin/mappings', { request: { urlPath: '/m' }, response: {} })).status).toBe(201);
    } finally {
      await engine.stop({ removeRoot: true });
    }
  });
});

describe('a file of several stubs ({"mappings": [...]})', () => {
  const UPPER_ID = '0000000A-0000-4000-8000-0000000000CC';
  const entry = (urlPath: string, extra: Record<string, unknown> = {}) => ({ ...extra, request: { urlPath }, response: { body: urlPath } });

  async function startWithFile(mappings: unknown[]) {
    const rootDir = await mkdtemp(path.join(os.tmpdir(), 'mockyard-engine-'));
    const file = path.join(rootDir, 'mappings', 'several.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ mappings }));
    const engine = await startTestEngine({ rootDir });
    const idOf = async (urlPath: string) => ((await call(engine.url, 'GET', '/__admin/mappings')).json().mappings as { id: string; request: { urlPath: string } }[]).find((m) => m.request.urlPath === urlPath)!.id;
    const readEntries = async () => JSON.parse(await readFile(file, 'utf8')).mappings as { id?: string; request: { urlPath: string }; response: { body: string } }[];
    return { engine, idOf, readEntries };
  }

  it('deletes and replaces its entries that have no id (found by position) or an upper-case id, in the file', async () => {
    const { engine, idOf, readEntries } = await startWithFile([entry('/m1'), entry('/m2'), entry('/m3', { id: UPPER_ID })]);
    try {
      expect((await call(engine.url, 'DELETE', `/__admin/mappings/${await idOf('/m1')}`)).status).toBe(200);
      expect((await readEntries()).map((e) => e.request.urlPath)).toEqual(['/m2', '/m3']);

      // /m2 is now the first entry: its position moved up with the delete
      const m2 = await idOf('/m2');
      const replaced = await call(engine.url, 'PUT', `/__admin/mappings/${m2}`, { ...entry('/m2'), response: { body: 'm2 changed' }, persistent: true });
      expect(replaced.status).toBe(200);
      expect((await readEntries()).map((e) => [e.id, e.request.urlPath, e.response.body])).toEqual([[m2, '/m2', 'm2 changed'], [UPPER_ID, '/m3', '/m3']]);

      expect((await call(engine.url, 'DELETE', `/__admin/mappings/${UPPER_ID}`)).status).toBe(200);
      expect((await readEntries()).map((e) => e.request.urlPath)).toEqual(['/m2']);

      await call(engine.url, 'POST', '/__admin/mappings/reset');
      expect((await call(engine.url, 'GET', '/m1')).status).toBe(404);
      expect((await call(engine.url, 'GET', '/m2')).text).toBe('m2 changed');
      expect((await call(engine.url, 'GET', '/m3')).status).toBe(404);
      expect(await idOf('/m2')).toBe(m2);
    } finally {
      await engine.stop({ removeRoot: true });
    }
  });

  it('deletes entries without ids of one file asked for at once, each the right one', async () => {
    const { engine, idOf, readEntries } = await startWithFile([entry('/c1'), entry('/c2'), entry('/c3'), entry('/c4')]);
    try {
      const ids = await Promise.all(['/c1', '/c2', '/c3'].map(idOf));
      const deleted = await Promise.all(ids.map((id) => call(engine.url, 'DELETE', `/__admin/mappings/${id}`)));
      expect(deleted.map((r) => r.status)).toEqual([200, 200, 200]);
      expect((await readEntries()).map((e) => e.request.urlPath)).toEqual(['/c4']);
    } finally {
      await engine.stop({ removeRoot: true });
    }
  });

  it('leaves a file that is no longer a file of several stubs alone when one of its old entries is deleted', async () => {
    const { engine, idOf } = await startWithFile([entry('/o1'), entry('/o2')]);
    try {
      const file = path.join(engine.rootDir, 'mappings', 'several.json');
      const replacement = JSON.stringify(entry('/replaced-by-hand'));
      await writeFile(file, replacement);
      expect((await call(engine.url, 'DELETE', `/__admin/mappings/${await idOf('/o1')}`)).status).toBe(200);
      expect(await readFile(file, 'utf8')).toBe(replacement);
      // a save of the other one goes to a file of its own, not over the edited one
      const o2 = await idOf('/o2');
      expect((await call(engine.url, 'PUT', `/__admin/mappings/${o2}`, { ...entry('/o2'), persistent: true })).status).toBe(200);
      expect(await readFile(file, 'utf8')).toBe(replacement);
      expect((await readdir(path.join(engine.rootDir, 'mappings'))).filter((name) => name.includes(o2))).toHaveLength(1);
    } finally {
      await engine.stop({ removeRoot: true });
    }
  });

  it('writes the ids of its entries on /mappings/save, so they keep them across a reset', async () => {
    const { engine, idOf, readEntries } = await startWithFile([entry('/s1'), entry('/s2')]);
    try {
      const ids = [await idOf('/s1'), await idOf('/s2')];
      expect((await call(engine.url, 'POST', '/__admin/mappings/save')).status).toBe(200);
      expect((await readEntries()).map((e) => [e.request.urlPath, e.id])).toEqual([['/s1', ids[0]], ['/s2', ids[1]]]);
      await call(engine.url, 'POST', '/__admin/mappings/reset');
      expect([await idOf('/s1'), await idOf('/s2')]).toEqual(ids);
    } finally {
      await engine.stop({ removeRoot: true });
    }
  });

  it('removes every entry of the file, then the file, on DELETE /__admin/mappings', async () => {
    const { engine } = await startWithFile([entry('/d1'), entry('/d2', { id: UPPER_ID }), entry('/d3')]);
    try {
      expect((await call(engine.url, 'DELETE', '/__admin/mappings')).status).toBe(200);
      expect(await readdir(path.join(engine.rootDir, 'mappings'))).toEqual([]);
    } finally {
      await engine.stop({ removeRoot: true });
    }
  });
});
