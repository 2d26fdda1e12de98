import type { EngineHealth } from '@mockyard/contracts';

export interface ServerRecord {
  id: string;
  name: string;
  url: string;
  health: EngineHealth;
  lastSeenAt: Date | null;
  lastCheckedAt: Date | null;
  stubCount: number | null;
  responseTimeMs: number | null;
  lastError: string | null;
  createdAt: Date | null;
}

export interface ProbeRecord {
  health: EngineHealth;
  checkedAt: Date;
  /** Set when the probe succeeded. */
  seenAt: Date | null;
  stubCount: number | null;
  responseTimeMs: number | null;
  error: string | null;
}

/** Port to where the registry and the hub's settings live (Postgres through Prisma). */
export interface ServerRepo {
  list(): Promise<ServerRecord[]>;
  find(id: string): Promise<ServerRecord | null>;
  /** Inserts; when the URL is already registered (even by a concurrent call) returns that entry with created=false. */
  create(input: { name: string; url: string }): Promise<{ server: ServerRecord; created: boolean }>;
  update(id: string, input: { name?: string; url?: string }): Promise<ServerRecord | null>;
  remove(id: string): Promise<boolean>;
  recordProbe(id: string, probe: ProbeRecord): Promise<void>;
  /** A heartbeat (the engine re-registered itself): it was alive at `at`. */
  markSeen(id: string, at: Date): Promise<ServerRecord | null>;
  getSetting(key: string): Promise<string | null>;
  setSetting(key: string, value: string): Promise<void>;
}
