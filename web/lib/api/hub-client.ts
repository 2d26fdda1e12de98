import { z } from 'zod';
import { ApiError } from './api-error';
import { requestJson, requestRaw } from './request-json';
import {
  FanoutCreatedSchema, FanoutStatusSchema, HubHealthSchema, NearMissListSchema, ProxyStateSchema,
  RecordedStubsSchema, RecordingStatusSchema, ServerListSchema, ServerSchema, StubListSchema, StubSchema,
  UnmatchedSchema,
} from './hub-schemas';

/**
 * The hub's public admin API as the browser reaches it: through this app's forwarder at /bff (which adds
 * the API key held server-side or entered once), so the same calls work behind the gateway and alone.
 */
export const HUB_BASE = '/bff/hub/admin';
export const LOCAL_ENGINE = 'local';

function target(engineId?: string): Record<string, string> {
  return engineId ? { 'X-Hub-Target-Server': engineId } : {};
}

export const hubClient = {
  /** Spring-style health answers 503 with the same body when a component is down: that is an answer, not an error. */
  fetchHealth: async () => {
    try {
      return await requestJson('/bff/health', HubHealthSchema, { timeoutMs: 5000 });
    } catch (error) {
      const parsed = error instanceof ApiError && error.status === 503 ? HubHealthSchema.safeParse(error.body) : undefined;
      if (parsed?.success) return parsed.data;
      throw error;
    }
  },
  listServers: () => requestJson(`${HUB_BASE}/registry/servers`, ServerListSchema),
  addServer: (server: { name: string; url: string }) =>
    requestJson(`${HUB_BASE}/registry/servers`, ServerSchema, { method: 'POST', body: server }),
  updateServer: (id: string, changes: { name?: string; url?: string }) =>
    requestRaw(`${HUB_BASE}/registry/servers/${encodeURIComponent(id)}`, { method: 'PATCH', body: changes }),
  removeServer: (id: string) => requestRaw(`${HUB_BASE}/registry/servers/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  /** Probes every engine now and returns the refreshed list. */
  checkServers: () => requestJson(`${HUB_BASE}/registry/health-check`, ServerListSchema, { method: 'POST', body: {}, timeoutMs: 20_000 }),
  activateServer: (id: string) => requestRaw(`${HUB_BASE}/registry/active`, { method: 'POST', body: { id } }),

  listStubs: (engineId?: string) => requestJson(`${HUB_BASE}/mappings`, StubListSchema, { headers: target(engineId) }),
  createStub: (stub: unknown, engineId?: string) =>
    requestJson(`${HUB_BASE}/mappings`, StubSchema, { method: 'POST', body: stub, headers: target(engineId) }),
  updateStub: (id: string, stub: unknown, engineId?: string) =>
    requestJson(`${HUB_BASE}/mappings/${encodeURIComponent(id)}`, StubSchema, { method: 'PUT', body: stub, headers: target(engineId) }),
  deleteStub: (id: string, engineId?: string) =>
    requestRaw(`${HUB_BASE}/mappings/${encodeURIComponent(id)}`, { method: 'DELETE', headers: target(engineId) }),
  importStubs: (mappings: unknown[], engineId?: string) =>
    requestRaw(`${HUB_BASE}/mappings/import`, { method: 'POST', body: { mappings }, headers: target(engineId), timeoutMs: 30_000 }),
  startFanout: (serverIds: string[], mappings: unknown[]) =>
    requestJson(`${HUB_BASE}/fanout`, FanoutCreatedSchema, { method: 'POST', body: { serverIds, mappings } }),
  fetchFanout: (id: string) => requestJson(`${HUB_BASE}/fanout/${encodeURIComponent(id)}`, FanoutStatusSchema),

  fetchProxy: (engineId?: string) => requestJson(`${HUB_BASE}/proxy`, ProxyStateSchema, { headers: target(engineId) }),
  enableProxy: (targetUrl: string, engineId?: string) =>
    requestRaw(`${HUB_BASE}/proxy/enable`, { method: 'POST', body: { targetUrl }, headers: target(engineId) }),
  disableProxy: (engineId?: string) =>
    requestRaw(`${HUB_BASE}/proxy/disable`, { method: 'POST', body: {}, headers: target(engineId) }),

  fetchRecordingStatus: (engineId?: string) =>
    requestJson(`${HUB_BASE}/recordings/status`, RecordingStatusSchema, { headers: target(engineId) }),
  startRecording: (targetUrl: string, engineId?: string) =>
    requestRaw(`${HUB_BASE}/recordings/start`, { method: 'POST', body: { targetUrl, targetBaseUrl: targetUrl }, headers: target(engineId) }),
  stopRecording: (engineId?: string) =>
    requestJson(`${HUB_BASE}/recordings/stop`, RecordedStubsSchema, { method: 'POST', body: {}, headers: target(engineId) }),

  listUnmatched: (engineId?: string) => requestJson(`${HUB_BASE}/requests/unmatched`, UnmatchedSchema, { headers: target(engineId) }),
  listNearMisses: (engineId?: string) =>
    requestJson(`${HUB_BASE}/requests/unmatched/near-misses`, NearMissListSchema, { headers: target(engineId) }),
};

/**
 * Stores an API key for this browser session in an HttpOnly cookie (never readable by page scripts), once the
 * hub and the traffic API accepted it; a refusal is an ApiError (401) naming the service.
 */
export async function saveApiKey(apiKey: string): Promise<void> {
  await requestRaw('/bff/session', { method: 'POST', body: { apiKey } });
}

export async function forgetApiKey(): Promise<void> {
  await requestRaw('/bff/session', { method: 'DELETE' });
}

/** `GET /bff/session`: which keys the server holds (serverHeldKey: the hub's) and whether one was entered. */
export const SessionInfoSchema = z.object({ serverHeldKey: z.boolean(), serverHeldTrafficKey: z.boolean(), sessionKey: z.boolean() });
export const fetchSessionInfo = () => requestJson('/bff/session', SessionInfoSchema);
