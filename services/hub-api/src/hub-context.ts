import type { Logger } from '@mockyard/service-kit';
import type { EngineAdmin } from './domain/engine-admin';
import type { EngineOperations } from './domain/engine-operations';
import type { Registry } from './domain/registry';
import type { HubQueues } from './adapters/hub-queues';
import type { TrafficLogClient } from './adapters/traffic-log.client';

/** Everything routes and MCP tools need, built once by createHub (or by a test). */
export interface HubContext {
  logger: Logger;
  registry: Registry;
  operations: EngineOperations;
  admin: EngineAdmin;
  traffic: TrafficLogClient;
  /** Absent where no Redis is wired (the stdio MCP entry): fan-out is then unavailable. */
  queues?: HubQueues;
  probeAll(): Promise<unknown>;
  checks: { database(): Promise<unknown>; redis?(): Promise<unknown> };
  healthTimeoutMs: number;
}
