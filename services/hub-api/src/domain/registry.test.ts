import type { EngineAdmin } from './engine-admin';
import { LOCAL_HEALTH_SETTING, Registry } from './registry';
import type { ServerRecord, ServerRepo } from './server-repo';

const T0 = new Date('2026-11-24T12:00:00Z');
const OFFLINE_AFTER = 60_000;

/** The registry over an in-memory repo, with a clock the test moves. */
function registryWith(records: ServerRecord[], settings: Record<string, string> = {}) {
  let now = T0;
  const repo = {
    list: async () => records,
    find: async (id: string) => records.find((r) => r.id === id) ?? null,
    getSetting: async (key: string) => settings[key] ?? null,
    markSeen: async (id: string) => records.find((r) => r.id === id) ?? null,
    create: async (input: { name: string; url: string }) => {
      const created = { ...record(`00000000-0000-4000-8000-0000000000${10 + records.length}`, 'UNKNOWN', null), ...input };
      records.push(created);
      return { server: created, created: true };
    },
  } as unknown as ServerRepo;
  const registry = new Registry(repo, {} as EngineAdmin, { localEngine: { name: 'local', url: 'http://127.0.0.1:9090' }, offlineAfterMs: OFFLINE_AFTER, now: () => now });
  return { registry, advance: (ms: number) => (now = new Date(T0.getTime() + ms)) };
}

function record(id: string, health: ServerRecord['health'], lastSeenAt: Date | null, createdAt: Date | null = T0): ServerRecord {
  return { id, name: id, url: `http://127.0.0.1/${id}`, health, lastSeenAt, lastCheckedAt: T0, stubCount: null, responseTimeMs: null, lastError: null, createdAt };
}

describe('Registry: stored health ages to OFFLINE when probing stops', () => {
  const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
  it.each([
    ['UP, seen just now', record(id(1), 'UP', T0), 'UP', 'OFFLINE'],
    ['DOWN, seen just now', record(id(2), 'DOWN', T0), 'DOWN', 'OFFLINE'],
    ['DOWN, never seen: counted from registration', record(id(3), 'DOWN', null), 'DOWN', 'OFFLINE'],
    ['DOWN, never seen, no registration time', record(id(4), 'DOWN', null, null), 'DOWN', 'DOWN'],
    ['OFFLINE stays OFFLINE', record(id(5), 'OFFLINE', null), 'OFFLINE', 'OFFLINE'],
    ['UNKNOWN (never probed) stays UNKNOWN', record(id(6), 'UNKNOWN', null), 'UNKNOWN', 'UNKNOWN'],
  ])('%s', async (_name, r, before, after) => {
    const { registry, advance } = registryWith([r]);
    expect((await registry.getServer(r.id)).health).toBe(before);
    advance(OFFLINE_AFTER - 1);
    expect((await registry.getServer(r.id)).health).toBe(before);
    advance(OFFLINE_AFTER);
    expect((await registry.getServer(r.id)).health).toBe(after);
    expect((await registry.listServers()).find((s) => s.id === r.id)?.health).toBe(after);
  });

  it('ages the local engine\'s DOWN from its first probe when it was never seen', async () => {
    const probe = { health: 'DOWN', checkedAt: T0.toISOString(), seenAt: null, firstCheckedAt: T0.toISOString(), stubCount: null, responseTimeMs: null, error: 'ECONNREFUSED' };
    const { registry, advance } = registryWith([], { [LOCAL_HEALTH_SETTING]: JSON.stringify(probe) });
    expect((await registry.getServer('local')).health).toBe('DOWN');
    advance(OFFLINE_AFTER);
    expect((await registry.getServer('local')).health).toBe('OFFLINE');
  });
});

describe('Registry: one entry per engine, whichever loopback name it is given by', () => {
  it('refuses the local engine under another loopback name', async () => {
    const { registry } = registryWith([]);
    await expect(registry.addServer({ name: 'again', url: 'http://localhost:9090/' })).rejects.toThrow('is the local engine');
  });

  it('answers a registered engine under another loopback name with its entry, adding none', async () => {
    const existing = { ...record('00000000-0000-4000-8000-000000000001', 'UP', T0), url: 'http://127.0.0.1:9191' };
    const records = [existing];
    const { registry } = registryWith(records);
    const { server, created } = await registry.addServer({ name: 'alias', url: 'http://localhost:9191' });
    expect([server.id, created, records.length]).toEqual([existing.id, false, 1]);
    expect((await registry.addServer({ name: 'other', url: 'http://localhost:9192' })).created).toBe(true);
  });
});
