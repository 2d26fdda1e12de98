import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
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
