import { LOCAL_SERVER_ID, type AddServer, type EngineHealth, type ManagedServer, type UpdateServer } from '@mockyard/contracts';
import type { EngineAdmin, EngineProbe } from './engine-admin';
import type { EngineRef } from './engine-ref';
import { ConflictError, InvalidInputError, NotFoundError } from './hub-errors';
import { isSameEngineUrl, normalizeEngineUrl } from './normalize-engine-url';
import type { ProbeRecord, ServerRecord, ServerRepo } from './server-repo';
import { isUuid, parseTargetSelector, type TargetSelector } from './target-selector';

export const ACTIVE_ENGINE_SETTING = 'active-engine';
export const LOCAL_HEALTH_SETTING = 'engine.local.health';

export interface RegistryOptions {
  localEngine: { name: string; url: string };
  offlineAfterMs: number;
  now?: () => Date;
}

/**
 * The registry of engines and the active-engine choice. The local engine is implicit (id "local",
 * URL from config); registered servers and the active id live in the repo and survive restarts.
 */
export class Registry {
  private readonly now: () => Date;
  private readonly local: EngineRef;

  constructor(
    private readonly repo: ServerRepo,
    private readonly admin: EngineAdmin,
    private readonly options: RegistryOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    this.local = { id: LOCAL_SERVER_ID, name: options.localEngine.name, url: normalizeEngineUrl(options.localEngine.url), isLocal: true };
  }

  localEngine(): EngineRef {
    return this.local;
  }

  async listServers(): Promise<ManagedServer[]> {
    const [records, activeId, localProbe] = await Promise.all([this.repo.list(), this.readActiveId(), this.readLocalProbe()]);
    const active = records.some((r) => r.id === activeId) ? activeId : LOCAL_SERVER_ID;
    return [this.describeLocal(localProbe, active === LOCAL_SERVER_ID), ...records.map((r) => this.describe(r, r.id === active))];
  }

  async getServer(id: string): Promise<ManagedServer> {
    const activeId = await this.activeId();
    if (id === LOCAL_SERVER_ID) return this.describeLocal(await this.readLocalProbe(), activeId === LOCAL_SERVER_ID);
    const record = await this.findRecord(id);
    return this.describe(record, record.id === activeId);
  }

  /**
   * Adds a server; the same URL again returns the existing entry (created=false), which self-registration
   * relies on. Engines re-register periodically as their heartbeat, so a repeat refreshes `lastSeenAt`:
   * an engine that stops heartbeating and stops answering probes turns OFFLINE (it is never deleted).
   */
  async addServer(input: AddServer): Promise<{ server: ManagedServer; created: boolean }> {
    const url = normalizeEngineUrl(input.url);
    if (isSameEngineUrl(url, this.local.url)) throw new ConflictError(`${url} is the local engine (id "local", ${this.local.url}); it is always registered`);
    // registered already, as written or under another loopback name: that entry (create also finds a racing one)
    const known = (await this.repo.list()).find((r) => isSameEngineUrl(r.url, url));
    const { server, created } = known ? { server: known, created: false } : await this.repo.create({ name: input.name, url });
    const current = created ? server : ((await this.repo.markSeen(server.id, this.now())) ?? server);
    return { server: this.describe(current, current.id === (await this.activeId())), created };
  }

  async updateServer(id: string, input: UpdateServer): Promise<ManagedServer> {
    this.refuseLocal(id, 'changed');
    const current = await this.findRecord(id);
    const url = input.url === undefined ? undefined : normalizeEngineUrl(input.url);
    if (url !== undefined && url !== current.url) {
      if (isSameEngineUrl(url, this.local.url)) throw new ConflictError(`${url} is the local engine's URL`);
      const other = (await this.repo.list()).find((r) => r.id !== current.id && isSameEngineUrl(r.url, url));
      if (other) throw new ConflictError(`${url} is already registered as server ${other.id} (${other.name})`);
    }
    const updated = await this.repo.update(current.id, { name: input.name, url });
    if (!updated) throw new NotFoundError(`no registered server with id ${id}`);
    if (url !== undefined && url !== current.url) this.admin.forget(current.id);
    return this.describe(updated, updated.id === (await this.activeId()));
  }

  /** Removes a server (it is not deleted from the engine, only from the hub); removing the active one makes local active. */
  async removeServer(id: string): Promise<void> {
    this.refuseLocal(id, 'removed');
    const record = await this.findRecord(id);
    const wasActive = (await this.readActiveId()) === record.id;
    await this.repo.remove(record.id);
    if (wasActive) await this.repo.setSetting(ACTIVE_ENGINE_SETTING, LOCAL_SERVER_ID);
    this.admin.forget(record.id);
  }

  async getActive(): Promise<ManagedServer> {
    return this.getServer(await this.activeId());
  }

  /** Makes `id` ("local" or a registered server) the active engine; an unknown id changes nothing. */
  async setActive(id: string): Promise<ManagedServer> {
    const selector = parseTargetSelector(id, 'id');
    const engine = await this.resolve(selector);
    await this.repo.setSetting(ACTIVE_ENGINE_SETTING, engine.id);
    return this.getServer(engine.id);
  }

  /** The engine a management call acts on: the active one unless the selector names another. */
  async resolve(selector: TargetSelector): Promise<EngineRef> {
    if (selector.kind === 'local') return this.local;
    const id = selector.kind === 'server' ? selector.id : await this.activeId();
    if (id === LOCAL_SERVER_ID) return this.local;
    const record = await this.repo.find(id);
    if (!record) {
      if (selector.kind === 'active') return this.local;
      throw new NotFoundError(`no registered server with id ${id}; GET /hub/admin/registry/servers lists them`);
    }
    return toEngineRef(record);
  }

  async listEngines(): Promise<EngineRef[]> {
    return [this.local, ...(await this.repo.list()).map(toEngineRef)];
  }

  /** Stores a health probe's outcome; a failing engine turns DOWN, then OFFLINE once unseen for offline-after-ms. */
  async recordProbe(engine: EngineRef, probe: EngineProbe): Promise<void> {
    const checkedAt = this.now();
    let previousSeen: Date | null;
    let firstKnown: Date;
    let localFirstChecked: Date | null = null;
    if (engine.isLocal) {
      const previous = await this.readLocalProbe();
      previousSeen = previous?.seenAt ?? null;
      localFirstChecked = previous?.firstCheckedAt ?? checkedAt;
      firstKnown = localFirstChecked;
    } else {
      const previous = await this.repo.find(engine.id);
      if (!previous) return; // removed meanwhile
      previousSeen = previous.lastSeenAt;
      firstKnown = previous.createdAt ?? checkedAt;
    }
    const lastSeen = probe.isUp ? checkedAt : previousSeen;
    const since = lastSeen ?? firstKnown;
    const health: EngineHealth = probe.isUp ? 'UP' : checkedAt.getTime() - since.getTime() < this.options.offlineAfterMs ? 'DOWN' : 'OFFLINE';
    const record: ProbeRecord = {
      health,
      checkedAt,
      seenAt: probe.isUp ? checkedAt : null,
      stubCount: probe.isUp ? probe.stubCount : null,
      responseTimeMs: probe.isUp ? probe.responseTimeMs : null,
      error: probe.error,
    };
    if (engine.isLocal) {
      await this.repo.setSetting(LOCAL_HEALTH_SETTING, JSON.stringify({ ...record, seenAt: lastSeen, firstCheckedAt: localFirstChecked }));
    } else {
      await this.repo.recordProbe(engine.id, record);
    }
  }

  private refuseLocal(id: string, verb: string) {
    if (id === LOCAL_SERVER_ID) throw new InvalidInputError(`the local engine is built in and cannot be ${verb}; set hub.local-engine-url to move it`);
  }

  private async findRecord(id: string): Promise<ServerRecord> {
    if (!isUuid(id)) throw new InvalidInputError(`server id "${id.slice(0, 80)}" is malformed: expected "local" or a UUID`);
    const record = await this.repo.find(id.toLowerCase());
    if (!record) throw new NotFoundError(`no registered server with id ${id}`);
    return record;
  }

  private async readActiveId(): Promise<string> {
    return (await this.repo.getSetting(ACTIVE_ENGINE_SETTING)) ?? LOCAL_SERVER_ID;
  }

  /** The stored active id, or local when it names a server that no longer exists. */
  private async activeId(): Promise<string> {
    const id = await this.readActiveId();
    if (id === LOCAL_SERVER_ID) return id;
    return (await this.repo.find(id)) ? id : LOCAL_SERVER_ID;
  }

  private async readLocalProbe(): Promise<LocalProbe | null> {
    const raw = await this.repo.getSetting(LOCAL_HEALTH_SETTING);
    if (!raw) return null;
    try {
      const v = JSON.parse(raw) as Record<string, unknown>;
      const date = (x: unknown) => (typeof x === 'string' ? new Date(x) : null);
      return {
        health: v.health as EngineHealth,
        checkedAt: date(v.checkedAt) ?? this.now(),
        seenAt: date(v.seenAt),
        firstCheckedAt: date(v.firstCheckedAt),
        stubCount: typeof v.stubCount === 'number' ? v.stubCount : null,
        responseTimeMs: typeof v.responseTimeMs === 'number' ? v.responseTimeMs : null,
        error: typeof v.error === 'string' ? v.error : null,
      };
    } catch {
      return null;
    }
  }

  private describeLocal(probe: LocalProbe | null, active: boolean): ManagedServer {
    return this.describe(
      {
        id: LOCAL_SERVER_ID,
        name: this.local.name,
        url: this.local.url,
        health: probe?.health ?? 'UNKNOWN',
        lastSeenAt: probe?.seenAt ?? null,
        lastCheckedAt: probe?.checkedAt ?? null,
        stubCount: probe?.stubCount ?? null,
        responseTimeMs: probe?.responseTimeMs ?? null,
        lastError: probe?.error ?? null,
        createdAt: null,
      },
      active,
      true,
      probe?.firstCheckedAt ?? null,
    );
  }

  private describe(r: ServerRecord, active: boolean, local = false, firstKnown = r.createdAt): ManagedServer {
    return {
      id: r.id,
      name: r.name,
      url: r.url,
      active,
      local,
      health: this.currentHealth(r, firstKnown),
      lastSeenAt: r.lastSeenAt?.toISOString() ?? null,
      lastCheckedAt: r.lastCheckedAt?.toISOString() ?? null,
      stubCount: r.stubCount,
      responseTimeMs: r.responseTimeMs,
      lastError: r.lastError,
      createdAt: r.createdAt?.toISOString() ?? null,
    };
  }

  /**
   * UP or DOWN as last probed, but OFFLINE once its last sign of life (else since it was first known) is older
   * than offline-after-ms, even if probing stopped: stored health ages as the probes would have aged it.
   */
  private currentHealth(r: ServerRecord, firstKnown: Date | null): EngineHealth {
    const since = r.health === 'UP' ? r.lastSeenAt : r.health === 'DOWN' ? (r.lastSeenAt ?? firstKnown) : null;
    if (!since) return r.health;
    return this.now().getTime() - since.getTime() >= this.options.offlineAfterMs ? 'OFFLINE' : r.health;
  }
}

interface LocalProbe extends ProbeRecord {
  firstCheckedAt: Date | null;
}

export function toEngineRef(r: Pick<ServerRecord, 'id' | 'name' | 'url'>): EngineRef {
  return { id: r.id, name: r.name, url: r.url, isLocal: false };
}
