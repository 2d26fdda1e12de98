import http from 'node:http';
import https from 'node:https';
import axios, { AxiosError, type AxiosInstance, type AxiosRequestConfig, type AxiosResponse } from 'axios';
import CircuitBreaker from 'opossum';
import { IDEMPOTENT_METHODS, POOLED_AGENT_OPTIONS, type Logger } from '@mockyard/service-kit';
import type { EngineAdmin, EngineCall, EngineProbe, EngineReply } from '../domain/engine-admin';
import type { EngineRef } from '../domain/engine-ref';
import { EngineFailedError, EngineRejectedError, EngineTimeoutError, EngineUnavailableError, EngineUnreachableError } from '../domain/hub-errors';
import { describeEngineError } from './describe-engine-error';

export interface EngineClientOptions {
  timeoutMs: number;
  insecureTls: boolean;
  /** Sent as X-Hub-Api-Key on every call (admin and probe) when the engines require an admin key. */
  apiKey?: string;
  breaker: { volumeThreshold: number; errorThresholdPercentage: number; resetTimeoutMs: number; rollingWindowMs: number };
  logger: Logger;
  /**
   * A pooled connection idle this long is closed (default POOLED_AGENT_OPTIONS.timeout), or 1 s before the
   * engine's own `Keep-Alive: timeout=` hint when that is shorter. Without it the hub reused connections the
   * engine was closing at its keep-alive timeout (Node's 5 s), and a call failed with ECONNRESET (502).
   */
  idleSocketTimeoutMs?: number;
}

/**
 * The engine closed a kept-alive connection as the hub sent on it (the race the idle timeout makes rare): the
 * request never reached the engine's handler, so an idempotent one is sent once more on a new connection.
 */
function isStaleConnectionReset(err: unknown, method: string): boolean {
  return err instanceof AxiosError && err.code === 'ECONNRESET' && (err.request as http.ClientRequest | undefined)?.reusedSocket === true && IDEMPOTENT_METHODS.has(method.toUpperCase());
}

/** `instance.request(config)`, sent once more when it met a stale kept-alive connection (isStaleConnectionReset). */
function requestOnLiveConnection(instance: AxiosInstance, config: AxiosRequestConfig & { method: string }): Promise<AxiosResponse> {
  return instance.request(config).catch((err: unknown) => {
    if (isStaleConnectionReset(err, config.method)) return instance.request(config);
    throw err;
  });
}

/** The header Mockyard engines read their admin key from (engine.admin-api-key). */
export const ENGINE_KEY_HEADER = 'X-Hub-Api-Key';

interface Client {
  url: string;
  http: AxiosInstance;
  breaker: CircuitBreaker<[EngineCall], EngineReply>;
  openedAt: number | null;
}

/** Thrown inside the breaker for replies that count as the engine failing (5xx). */
class EngineServerError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`engine answered ${status}`);
  }
}

/**
 * One axios client per engine (timeout, keep-alive agents) wrapped in one opossum circuit breaker per
 * engine. Network errors, timeouts and 5xx count against the breaker; an engine's own 4xx is a
 * successful call for the breaker and is passed through as EngineRejectedError.
 */
export class EngineClientPool implements EngineAdmin {
  private readonly clients = new Map<string, Client>();
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(private readonly options: EngineClientOptions) {
    const pooling = { ...POOLED_AGENT_OPTIONS, maxSockets: 32, timeout: options.idleSocketTimeoutMs ?? POOLED_AGENT_OPTIONS.timeout };
    this.httpAgent = new http.Agent(pooling);
    this.httpsAgent = new https.Agent({ ...pooling, rejectUnauthorized: !options.insecureTls });
  }

  async call(engine: EngineRef, call: EngineCall): Promise<EngineReply> {
    const client = this.clientFor(engine);
    let reply: EngineReply;
    try {
      reply = await client.breaker.fire(call);
    } catch (err) {
      throw this.toEngineError(engine, client, err);
    }
    if (reply.status === 401 || reply.status === 403) throw new EngineFailedError(engine, this.describeRefusedKey(engine, reply.status), reply.status);
    // a redirect is not followed (an admin call must not be replayed elsewhere); nothing was done
    if (reply.status >= 300 && reply.status < 400) throw new EngineFailedError(engine, describeRedirect(engine, reply), reply.status);
    if (reply.status >= 400) throw new EngineRejectedError(engine, reply.status, describeEngineError(engine, reply.status, reply.body), reply.body);
    return reply;
  }

  /** A health probe: bypasses the breaker (so a recovered engine is noticed), never throws. */
  async probe(engine: EngineRef, timeoutMs: number): Promise<EngineProbe> {
    const client = this.clientFor(engine);
    const started = process.hrtime.bigint();
    const elapsed = () => Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10;
    try {
      const res = await requestOnLiveConnection(client.http, { method: 'GET', url: '/mappings', params: { limit: 1 }, timeout: timeoutMs });
      const responseTimeMs = elapsed();
      if (res.status === 401 || res.status === 403) return { isUp: false, stubCount: null, responseTimeMs, error: this.describeRefusedKey(engine, res.status) };
      if (res.status !== 200) return { isUp: false, stubCount: null, responseTimeMs, error: `GET /__admin/mappings answered ${res.status}` };
      const total = (res.data as { meta?: { total?: unknown } } | undefined)?.meta?.total;
      return { isUp: true, stubCount: typeof total === 'number' ? total : null, responseTimeMs, error: null };
    } catch (err) {
      return { isUp: false, stubCount: null, responseTimeMs: elapsed(), error: networkMessage(err, timeoutMs) };
    }
  }

  forget(engineId: string): void {
    const client = this.clients.get(engineId);
    if (!client) return;
    client.breaker.shutdown();
    this.clients.delete(engineId);
  }

  /** State of an engine's breaker, for logs and health details. */
  breakerState(engineId: string): 'CLOSED' | 'OPEN' | 'HALF_OPEN' | null {
    const b = this.clients.get(engineId)?.breaker;
    if (!b) return null;
    return b.opened ? 'OPEN' : b.halfOpen ? 'HALF_OPEN' : 'CLOSED';
  }

  close(): void {
    for (const id of [...this.clients.keys()]) this.forget(id);
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private clientFor(engine: EngineRef): Client {
    const existing = this.clients.get(engine.id);
    if (existing && existing.url === engine.url) return existing;
    if (existing) this.forget(engine.id);
    const instance = axios.create({
      baseURL: `${engine.url}/__admin`,
      timeout: this.options.timeoutMs,
      httpAgent: this.httpAgent,
      httpsAgent: this.httpsAgent,
      validateStatus: () => true,
      maxRedirects: 0,
      // the hub passes JSON through untouched; axios must not guess at other shapes
      transitional: { silentJSONParsing: true, forcedJSONParsing: true, clarifyTimeoutError: true },
      headers: { Accept: 'application/json', ...(this.options.apiKey ? { [ENGINE_KEY_HEADER]: this.options.apiKey } : {}) },
    });
    const action = async (call: EngineCall): Promise<EngineReply> => {
      const res = await requestOnLiveConnection(instance, { method: call.method, url: call.path, params: call.query, data: call.body });
      if (res.status >= 500) throw new EngineServerError(res.status, res.data);
      const location = typeof res.headers.location === 'string' ? res.headers.location : undefined;
      return { status: res.status, body: res.data === '' ? undefined : res.data, ...(location ? { location } : {}) };
    };
    const { breaker: b } = this.options;
    const breaker = new CircuitBreaker(action, {
      name: `engine:${engine.id}`,
      timeout: false, // axios enforces the timeout
      errorThresholdPercentage: b.errorThresholdPercentage,
      volumeThreshold: b.volumeThreshold,
      resetTimeout: b.resetTimeoutMs,
      rollingCountTimeout: b.rollingWindowMs,
    });
    const client: Client = { url: engine.url, http: instance, breaker, openedAt: null };
    const log = this.options.logger.child({ engineId: engine.id, engineUrl: engine.url });
    breaker.on('open', () => {
      client.openedAt = Date.now();
      log.warn({ resetTimeoutMs: b.resetTimeoutMs }, 'engine circuit breaker opened');
    });
    breaker.on('halfOpen', () => log.info('engine circuit breaker half-open'));
    breaker.on('close', () => {
      client.openedAt = null;
      log.info('engine circuit breaker closed');
    });
    this.clients.set(engine.id, client);
    return client;
  }

  /**
   * An engine's 401/403 means the hub's own engine key is missing or wrong, not the caller's: it is answered
   * as 502 naming the setting to fix, never passed through as 401 (which would read as "your hub key is wrong").
   */
  private describeRefusedKey(engine: EngineRef, status: number): string {
    const fix = 'set hub.engine.api-key (HUB_ENGINE_API_KEY) to the engine\'s engine.admin-api-key';
    return this.options.apiKey
      ? `engine ${engine.id} (${engine.url}) refused the hub's engine API key (${status}): ${fix}`
      : `engine ${engine.id} (${engine.url}) requires an admin API key (${status}) and the hub sends none: ${fix}`;
  }

  private toEngineError(engine: EngineRef, client: Client, err: unknown) {
    if ((err as { code?: string }).code === 'EOPENBREAKER') {
      const remainingMs = client.openedAt === null ? this.options.breaker.resetTimeoutMs : client.openedAt + this.options.breaker.resetTimeoutMs - Date.now();
      return new EngineUnavailableError(engine, Math.max(1, Math.ceil(remainingMs / 1000)));
    }
    if (err instanceof EngineServerError) {
      return new EngineFailedError(engine, describeEngineError(engine, err.status, err.body), err.status);
    }
    if (err instanceof AxiosError && (err.code === 'ETIMEDOUT' || err.code === 'ECONNABORTED')) {
      return new EngineTimeoutError(engine, this.options.timeoutMs);
    }
    return new EngineUnreachableError(engine, `engine ${engine.id} (${engine.url}) is unreachable: ${networkMessage(err, this.options.timeoutMs)}`);
  }
}

function networkMessage(err: unknown, timeoutMs: number): string {
  if (err instanceof AxiosError) {
    if (err.code === 'ETIMEDOUT' || err.code === 'ECONNABORTED') return `no answer within ${timeoutMs} ms`;
    const cause = (err.cause as { code?: string; message?: string } | undefined) ?? {};
    return [err.code ?? cause.code, cause.message ?? err.message].filter(Boolean).join(' ');
  }
  return (err as Error)?.message ?? String(err);
}

/** Why a 3xx from an engine failed the call: the URL registered is not where its admin API answers. */
function describeRedirect(engine: EngineRef, reply: EngineReply & { location?: string }): string {
  const where = reply.location ? ` to ${reply.location}` : ' (no Location)';
  return `engine ${engine.id} (${engine.url}) answered ${reply.status} redirecting${where}; the hub does not follow redirects: register the engine under the URL its admin API answers at`;
}
