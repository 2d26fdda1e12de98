import { EngineHealthSchema } from '@mockyard/contracts';
import { Prisma, type PrismaClient } from '@mockyard/db';
import type { ProbeRecord, ServerRecord, ServerRepo } from '../domain/server-repo';
import { ConflictError } from '../domain/hub-errors';

type Row = {
  id: string;
  name: string;
  url: string;
  health: string;
  lastSeenAt: Date | null;
  lastCheckedAt: Date | null;
  stubCount: number | null;
  responseTimeMs: number | null;
  lastError: string | null;
  createdAt: Date;
};

/** The registry (managed_servers) and hub_settings in Postgres. */
export class PrismaServerRepo implements ServerRepo {
  constructor(private readonly prisma: PrismaClient) {}

  async list(): Promise<ServerRecord[]> {
    const rows = await this.prisma.managedServer.findMany({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    return rows.map(toRecord);
  }

  async find(id: string): Promise<ServerRecord | null> {
    const row = await this.prisma.managedServer.findUnique({ where: { id } });
    return row ? toRecord(row) : null;
  }

  private async findByUrl(url: string): Promise<ServerRecord | null> {
    const row = await this.prisma.managedServer.findUnique({ where: { url } });
    return row ? toRecord(row) : null;
  }

  async create(input: { name: string; url: string }): Promise<{ server: ServerRecord; created: boolean }> {
    const existing = await this.findByUrl(input.url);
    if (existing) return { server: existing, created: false };
    try {
      const row = await this.prisma.managedServer.create({ data: { name: input.name, url: input.url } });
      return { server: toRecord(row), created: true };
    } catch (err) {
      if (isUniqueViolation(err)) {
        const winner = await this.findByUrl(input.url);
        if (winner) return { server: winner, created: false };
      }
      throw err;
    }
  }

  async update(id: string, input: { name?: string; url?: string }): Promise<ServerRecord | null> {
    try {
      const data: Prisma.ManagedServerUpdateInput = {};
      if (input.name !== undefined) data.name = input.name;
      if (input.url !== undefined) data.url = input.url;
      const row = await this.prisma.managedServer.update({ where: { id }, data });
      return toRecord(row);
    } catch (err) {
      if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2025') return null;
      // another server took the URL between the caller's check and this update (the URL is unique)
      if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') throw new ConflictError(`${input.url} is already registered as another server`);
      throw err;
    }
  }

  async remove(id: string): Promise<boolean> {
    const { count } = await this.prisma.managedServer.deleteMany({ where: { id } });
    return count > 0;
  }

  async recordProbe(id: string, probe: ProbeRecord): Promise<void> {
    await this.prisma.managedServer.updateMany({
      where: { id },
      data: {
        health: probe.health,
        lastCheckedAt: probe.checkedAt,
        ...(probe.seenAt ? { lastSeenAt: probe.seenAt } : {}),
        stubCount: probe.stubCount,
        responseTimeMs: probe.responseTimeMs,
        lastError: probe.error,
      },
    });
  }

  async markSeen(id: string, at: Date): Promise<ServerRecord | null> {
    await this.prisma.managedServer.updateMany({ where: { id }, data: { lastSeenAt: at } });
    return this.find(id);
  }

  async getSetting(key: string): Promise<string | null> {
    const row = await this.prisma.hubSetting.findUnique({ where: { key } });
    return row?.value ?? null;
  }

  async setSetting(key: string, value: string): Promise<void> {
    await this.prisma.hubSetting.upsert({ where: { key }, create: { key, value }, update: { value } });
  }
}

function toRecord(row: Row): ServerRecord {
  const health = EngineHealthSchema.safeParse(row.health);
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    health: health.success ? health.data : 'UNKNOWN',
    lastSeenAt: row.lastSeenAt,
    lastCheckedAt: row.lastCheckedAt,
    stubCount: row.stubCount,
    responseTimeMs: row.responseTimeMs,
    lastError: row.lastError,
    createdAt: row.createdAt,
  };
}

function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';
}
