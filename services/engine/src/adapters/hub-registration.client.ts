import type { Logger } from '@mockyard/service-kit';

export interface HubRegistrationOptions {
  hubUrl: string;
  name: string;
  publicUrl: string;
  apiKey?: string;
  heartbeatMs: number;
  /** First retry delay; doubles up to `maxBackoffMs`. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  requestTimeoutMs?: number;
  logger: Logger;
}

export interface HubRegistration {
  readonly state: { isRegistered: boolean; attempts: number; lastError?: string };
  stop(): Promise<void>;
}

/**
 * Registers the engine with the hub (`POST /hub/admin/registry/servers {name,url}`, idempotent by URL on the
 * hub), retrying with exponential backoff until it succeeds, then re-posts every `heartbeatMs` as a
 * heartbeat. `stop()` ends the loop (SIGTERM).
 */
export function startHubRegistration(options: HubRegistrationOptions): HubRegistration {
  const state: HubRegistration['state'] = { isRegistered: false, attempts: 0 };
  const endpoint = `${options.hubUrl.replace(/\/+$/, '')}/hub/admin/registry/servers`;
  const initialBackoffMs = options.initialBackoffMs ?? 1000;
  const maxBackoffMs = options.maxBackoffMs ?? 30000;
  const stopped = new AbortController();
  let backoffMs = initialBackoffMs;
  let timer: NodeJS.Timeout | undefined;

  async function post(): Promise<void> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.apiKey) headers['x-hub-api-key'] = options.apiKey;
    const timeout = AbortSignal.timeout(options.requestTimeoutMs ?? 5000);
    const res = await fetch(endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: options.name, url: options.publicUrl }),
      signal: AbortSignal.any([timeout, stopped.signal]),
    });
    await res.arrayBuffer().catch(() => undefined);
    if (res.status >= 300) throw new Error(`hub answered ${res.status}`);
  }

  async function tick() {
    if (stopped.signal.aborted) return;
    state.attempts++;
    let delayMs: number;
    try {
      await post();
      if (!state.isRegistered) options.logger.info({ hubUrl: options.hubUrl, name: options.name, url: options.publicUrl }, 'registered with hub');
      state.isRegistered = true;
      state.lastError = undefined;
      backoffMs = initialBackoffMs;
      delayMs = options.heartbeatMs;
    } catch (err) {
      if (stopped.signal.aborted) return;
      state.lastError = (err as Error).message;
      options.logger.warn({ hubUrl: options.hubUrl, err: state.lastError, retryInMs: backoffMs }, 'hub registration failed');
      delayMs = backoffMs;
      backoffMs = Math.min(backoffMs * 2, maxBackoffMs);
    }
    if (!stopped.signal.aborted) timer = setTimeout(() => void tick(), delayMs);
  }

  void tick();
  return {
    state,
    async stop() {
      stopped.abort();
      clearTimeout(timer);
    },
  };
}
