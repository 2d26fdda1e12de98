import http from 'node:http';
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { redisKeys, TRAFFIC_EVENT_FIELD, type TrafficEvent } from '@mockyard/contracts';
import { createDbClient, type DbHandle } from '@mockyard/db';
import { createLogger, startServer, type StartedServer } from '@mockyard/service-kit';
import type { TestDatabase, TestRedis } from '@mockyard/testkit';
import { loadLoggerConfig } from '../src/config';
import { createTrafficLogger, type TrafficLoggerParts } from '../src/traffic-logger';

export interface RunningLogger extends TrafficLoggerParts {
  server: StartedServer;
  url: string;
  db: DbHandle;
  close(graceMs?: number): Promise<void>;
}

/** One logger instance (consumer + HTTP app on port 0) against this file's database and Redis prefix. */
export async function startLogger(database: TestDatabase, redis: TestRedis, env: Record<string, string> = {}): Promise<RunningLogger> {
  const config = loadLoggerConfig({
    env: { DATABASE_URL: database.url, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, TRAFFIC_CONSUMER_NAME: `test-${randomUUID().slice(0, 8)}`, ...env },
    propertiesPath: '/dev/null',
  });
  const logger = createLogger({ service: 'traffic-logger', level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const db = await createDbClient(config.datasource, { maxConnections: 5 });
  const parts = createTrafficLogger(config, { logger, db });
  const server = await startServer(parts.app, 0, '127.0.0.1');
  await parts.start();
  let closed = false;
  return {
    ...parts,
    server,
    url: server.url,
    db,
    close: async (graceMs = 2000) => {
      if (closed) return;
      closed = true;
      await parts.stop(graceMs);
      await server.close(500);
      await db.close();
    },
  };
}

let counter = 0;
/** A capture event as the gateway publishes it; startedAt increases per call so order is predictable. */
export function makeEvent(overrides: Partial<TrafficEvent> = {}): TrafficEvent {
  counter += 1;
  return {
    id: randomUUID(),
    startedAt: new Date(Date.UTC(2026, 10, 22, 10, 0, 0) + counter * 1000).toISOString(),
    durationMs: 12.5,
    source: 'proxy',
    method: 'GET',
    url: `http://api.example.test/orders/${counter}?expand=items`,
    request: { headers: { accept: 'application/json', host: 'api.example.test' } },
    response: {
      status: 200,
      statusMessage: 'OK',
      headers: { 'content-type': 'application/json' },
      body: { encoding: 'utf8', data: `{"order":${counter}}`, size: 12, truncated: false, contentType: 'application/json' },
    },
    ...overrides,
  };
}

/** XADD in the gateway's wire format: `XADD <stream> MAXLEN ~ n * event <json>`. */
export async function publish(redis: Redis, prefix: string, events: (TrafficEvent | string)[]): Promise<string[]> {
  const stream = redisKeys(prefix).trafficStream;
  const pipeline = redis.pipeline();
  for (const e of events) pipeline.xadd(stream, 'MAXLEN', '~', 100000, '*', TRAFFIC_EVENT_FIELD, typeof e === 'string' ? e : JSON.stringify(e));
  const results = await pipeline.exec();
  return (results ?? []).map(([, id]) => String(id));
}

export async function waitFor<T>(probe: () => Promise<T | undefined | false>, what: string, timeoutMs = 15000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function countRows(db: DbHandle): Promise<number> {
  const [{ n }] = await db.prisma.$queryRawUnsafe<{ n: number }[]>('SELECT count(*)::int AS n FROM exchanges');
  return n;
}

export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/** A minimal EventSource: collects parsed events; `next(n)` waits until n events of a type arrived. */
export function openSse(url: string, headers: Record<string, string> = {}) {
  const events: SseEvent[] = [];
  let status = 0;
  let contentType = '';
  let notify = () => {};
  let req: http.ClientRequest | undefined;
  const opened = new Promise<void>((resolve, reject) => {
    req = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      status = res.statusCode ?? 0;
      contentType = String(res.headers['content-type'] ?? '');
      res.setEncoding('utf8');
      let buf = '';
      res.on('data', (chunk: string) => {
        buf += chunk;
        let idx;
        while ((idx = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, idx);
          buf = buf.slice(idx + 2);
          const ev: SseEvent = { event: 'message', data: '' };
          let hasField = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':') || !line) continue;
            const [field, ...rest] = line.split(':');
            const value = rest.join(':').replace(/^ /, '');
            if (field === 'id') ev.id = value;
            else if (field === 'event') ev.event = value;
            else if (field === 'data') ev.data += value;
            else continue;
            hasField = true;
          }
          if (hasField && (ev.data || ev.id)) events.push(ev);
          notify();
        }
      });
      resolve();
    });
    req.on('error', reject);
  });
  const of = (type: string) => events.filter((e) => e.event === type);
  return {
    events,
    get status() {
      return status;
    },
    get contentType() {
      return contentType;
    },
    opened,
    of,
    async next(type: string, count: number, timeoutMs = 10000): Promise<SseEvent[]> {
      const deadline = Date.now() + timeoutMs;
      while (of(type).length < count) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${count} ${type} events (got ${of(type).length})`);
        await new Promise<void>((resolve) => {
          notify = resolve;
          setTimeout(resolve, 100);
        });
      }
      return of(type).slice(0, count);
    },
    close() {
      req?.destroy();
    },
  };
}
