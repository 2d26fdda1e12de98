import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { decodeTrafficEntry } from '@mockyard/bus';
import { redisKeys, type TrafficEvent } from '@mockyard/contracts';
import { createTestRedis } from '@mockyard/testkit';
import { startHubRegistration } from '../src/adapters/hub-registration.client';
import { createTrafficPublisher } from '../src/adapters/traffic.publisher';
import { call, silentLogger, startTestEngine, startUpstream } from './engine-harness';

async function waitFor<T>(read: () => Promise<T> | T, isDone: (v: T) => boolean, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (isDone(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('hub self-registration', () => {
  it('retries until the hub accepts, sends name, url and the API key, then heartbeats and stops on demand', async () => {
    let failuresLeft = 2;
    const hub = await startUpstream((_req, _body, res) => {
      if (failuresLeft-- > 0) res.writeHead(503).end();
      else res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
    });
    const registration = startHubRegistration({
      hubUrl: hub.url,
      name: 'engine-a',
      publicUrl: 'http://engine-a:9090',
      apiKey: 'k3y',
      heartbeatMs: 50,
      initialBackoffMs: 10,
      logger: silentLogger,
    });
    try {
      await waitFor(() => hub.received.length, (n) => n >= 5);
      expect(registration.state.isRegistered).toBe(true);
      const calls = hub.received;
      expect(calls.every((c) => c.method === 'POST' && c.url === '/hub/admin/registry/servers')).toBe(true);
      expect(JSON.parse(calls[0].body.toString())).toEqual({ name: 'engine-a', url: 'http://engine-a:9090' });
      expect(calls[0].headers['x-hub-api-key']).toBe('k3y');
    } finally {
      await registration.stop();
    }
    const afterStop = hub.received.length;
    await new Promise((r) => setTimeout(r, 150));
    expect(hub.received.length).toBe(afterStop);
    await hub.close();
  });
});

describe('traffic publishing to Redis', () => {
  const testRedis = createTestRedis();
  afterAll(() => testRedis.cleanup());

  it('publishes matched and unmatched requests as engine traffic events', async () => {
    const publisher = await createTrafficPublisher({ redisUrl: testRedis.url, prefix: testRedis.prefix, engineId: 'engine-t', rootDir: mkdtempSync(join(tmpdir(), 'engine-pub-')), logger: silentLogger });
    const engine = await startTestEngine({ traffic: publisher });
    const redis = new Redis(testRedis.url);
    try {
      const id = (await call(engine.url, 'POST', '/__admin/mappings', { name: 'ping', request: { urlPath: '/ping' }, response: { status: 200, body: 'pong' } })).json().id;
      await call(engine.url, 'GET', '/ping');
      await call(engine.url, 'GET', '/pong');
      const stream = redisKeys(testRedis.prefix).trafficStream;
      // Decoded as the logger does (an entry carries the publisher's batch: both events may share one).
      const readEvents = async () =>
        (await redis.xrange(stream, '-', '+')).flatMap(([id, fields]) =>
          decodeTrafficEntry(fields).map((d): TrafficEvent => {
            if (!d.ok) throw new Error(`stream entry ${id}: ${d.reason}`);
            return d.event;
          }),
        );
      const events = await waitFor(readEvents, (e) => e.length >= 2);
      expect(events[0]).toMatchObject({ source: 'engine', engineId: 'engine-t', method: 'GET', matchedStubId: id, response: { status: 200, body: { data: 'pong' } } });
      expect(events[1]).toMatchObject({ source: 'engine', response: { status: 404 }, nearMiss: expect.stringContaining('ping') });
      expect(publisher.counters()).toMatchObject({ spooled: 0, dropped: 0 });
    } finally {
      redis.disconnect();
      await engine.stop({ removeRoot: true });
      await publisher.close();
    }
  });

  it('keeps serving and spools the events when Redis is unreachable', async () => {
    const rootDir = mkdtempSync(join(tmpdir(), 'engine-pub-'));
    const publisher = await createTrafficPublisher({ redisUrl: 'redis://127.0.0.1:1', prefix: testRedis.prefix, engineId: 'engine-t', rootDir, logger: silentLogger, connectTimeoutMs: 200 });
    const engine = await startTestEngine({ traffic: publisher });
    try {
      await call(engine.url, 'POST', '/__admin/mappings', { request: { urlPath: '/ok' }, response: { body: 'ok' } });
      expect((await call(engine.url, 'GET', '/ok')).text).toBe('ok');
      await waitFor(() => publisher.counters().spooled, (n) => n >= 1);
      expect(publisher.counters()).toMatchObject({ spooled: 1, dropped: 0 });
      expect(readFileSync(join(rootDir, 'spool', 'traffic-spool.jsonl'), 'utf8')).toContain('"engineId":"engine-t"');
    } finally {
      await engine.stop({ removeRoot: true });
      await publisher.close();
    }
  });
});

describe('admin API key', () => {
  it('requires the key on /__admin when configured, but never on stubs', async () => {
    const engine = await startTestEngine({ adminApiKey: 'secret' });
    try {
      expect((await call(engine.url, 'GET', '/__admin/mappings')).status).toBe(401);
      expect((await call(engine.url, 'GET', '/__admin/health')).status).toBe(200);
      expect((await call(engine.url, 'GET', '/__admin/mappings', undefined, { 'x-hub-api-key': 'wrong' })).status).toBe(401);
      expect((await call(engine.url, 'GET', '/__admin/mappings', undefined, { 'x-hub-api-key': 'secret' })).status).toBe(200);
      const created = await call(engine.url, 'POST', '/__admin/mappings', { request: { urlPath: '/open' }, response: { body: 'open' } }, { authorization: 'Bearer secret', 'content-type': 'application/json' });
      expect(created.status).toBe(201);
      expect((await call(engine.url, 'GET', '/open')).text).toBe('open');
    } finally {
      await engine.stop({ removeRoot: true });
    }
  });
});

describe('health, version and the admin API description', () => {
  it('answers WireMock-shaped health and version and describes the admin API', async () => {
    const engine = await startTestEngine();
    try {
      expect((await call(engine.url, 'GET', '/__admin/health')).json()).toMatchObject({ status: 'healthy', version: expect.stringMatching(/^3\./), uptimeInSeconds: expect.any(Number) });
      expect((await call(engine.url, 'GET', '/__admin/version')).json().version).toMatch(/^3\./);
      expect((await call(engine.url, 'GET', '/__admin/nope')).status).toBe(404);
      const openapi = (await call(engine.url, 'GET', '/__admin/docs/openapi.json')).json();
      expect(Object.keys(openapi.paths)).toEqual(expect.arrayContaining(['/__admin/mappings', '/__admin/mappings/{id}', '/__admin/recordings/start', '/__admin/mockyard/proxy']));
    } finally {
      await engine.stop({ removeRoot: true });
    }
  });
});
