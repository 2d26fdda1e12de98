import pino from 'pino';
import { createLogger, startServer, type StartedServer } from '@mockyard/service-kit';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@mockyard/testkit';
import { loadHubConfig } from '../../src/config';
import { createHub, type Hub } from '../../src/create-hub';

export interface RunningHub {
  url: string;
  hub: Hub;
  server: StartedServer;
  stop(): Promise<void>;
}

/** A hub on port 0 over a given database and Redis prefix, configured like production through env keys. */
export async function startHub(options: { database: TestDatabase; redis: TestRedis; env?: Record<string, string>; startJobs?: boolean }): Promise<RunningHub> {
  const config = loadHubConfig({
    env: {
      DATABASE_URL: options.database.url,
      REDIS_URL: options.redis.url,
      REDIS_PREFIX: options.redis.prefix,
      LOG_LEVEL: process.env.HUB_TEST_LOG_LEVEL ?? 'OFF',
      HUB_HEALTH_PROBE_INTERVAL_MS: '60000',
      HUB_ENGINE_TIMEOUT_MS: '2000',
      ...options.env,
    },
    propertiesPath: '/dev/null',
  });
  const logFile = process.env.HUB_TEST_LOG_FILE;
  const logger = createLogger({ service: 'hub-api-test', level: config.logLevel, destination: logFile ? pino.destination({ dest: logFile, sync: true, append: true }) : undefined });
  const hub = await createHub({ config, logger });
  if (options.startJobs ?? true) await hub.start();
  const server = await startServer(hub.app, 0);
  return {
    url: server.url,
    hub,
    server,
    stop: async () => {
      await server.close(100);
      await hub.stop();
    },
  };
}

export async function createTestBackends() {
  const database = await createTestDatabase();
  const redis = createTestRedis();
  return {
    database,
    redis,
    cleanup: async () => {
      await redis.cleanup();
      await database.drop();
    },
  };
}

/** Small JSON fetch helper: returns status, headers and parsed body. */
export async function call(base: string, method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
    body: options.body !== undefined ? (typeof options.body === 'string' ? options.body : JSON.stringify(options.body)) : undefined,
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* keep text */
  }
  return { status: res.status, headers: res.headers, body };
}

export async function eventually<T>(fn: () => Promise<T>, accept: (v: T) => boolean, timeoutMs = 15000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (accept(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(v).slice(0, 1000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
