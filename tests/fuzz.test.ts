// Property-based fuzzing over HTTP against the real processes (fixed seed, bounded runs, so CI is
// repeatable): the engine's stub JSON parser and validator, its request matcher (including regexes built
// from a regex alphabet, hunting for catastrophic backtracking the validator let through), and the read
// API's query parameters. The unit-level properties of the matching package (packages/matching/src/
// matching.property.test.ts) cover the pure functions; this file covers what the HTTP layer adds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { createTestDatabase, createTestRedis, freePort, type TestDatabase, type TestRedis } from '@mockyard/testkit';
import { startService, type ServiceProcess } from './faults/support/service-process';

jest.setTimeout(120_000);
const SEED = 20261122;
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const HANG_MS = 5000;

let engine: ServiceProcess;
let logger: ServiceProcess;
let engineDir: string;
let db: TestDatabase;
let redis: TestRedis;
const tried = { stubs: 0, stubsAccepted: 0, regexes: 0, regexesAccepted: 0, requests: 0, queries: 0 };

beforeAll(async () => {
  engineDir = mkdtempSync(join(tmpdir(), 'fuzz-engine-'));
  db = await createTestDatabase();
  redis = createTestRedis();
  [engine, logger] = await Promise.all([
    startService('engine', await freePort(), { ENGINE_ROOT_DIR: engineDir, ENGINE_JOURNAL_MAX_ENTRIES: '100' }),
    startService('traffic-logger', await freePort(), { DATABASE_URL: db.url, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix }),
  ]);
});

afterAll(async () => {
  process.stderr.write(`[fuzz] inputs tried: ${JSON.stringify(tried)}\n`);
  await Promise.allSettled([engine?.stop(), logger?.stop()]);
  await Promise.allSettled([db?.drop(), redis?.cleanup()]);
  if (engineDir) rmSync(engineDir, { recursive: true, force: true });
});

/** fetch that fails the property (instead of hanging the suite) when the server does not answer in time. */
async function call(url: string, init: RequestInit = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(HANG_MS) });
  return { status: res.status, text: await res.text() };
}

const regexAlphabet = fc.constantFrom('a', 'b', '(', ')', '*', '+', '?', '|', '.', '[', ']', '{', '}', '1', '3', ',', '\\', '^', '$', '-', 'd', 'w', 's', '(?:', '(?=', '(?!');
const userRegex = fc.string({ unit: regexAlphabet, minLength: 1, maxLength: 14 });
const attackInput = fc.oneof(
  fc.constant(`${'a'.repeat(40)}!`),
  fc.constant(`${'ab'.repeat(25)}c`),
  fc.constant(`${'1'.repeat(40)}x`),
  fc.string({ unit: fc.constantFrom('a', 'b', '1', ' ', '-'), maxLength: 60 }),
);
const anyOperator = fc.oneof(
  fc.record({ equalTo: fc.string({ maxLength: 10 }) }),
  fc.record({ matches: userRegex }),
  fc.record({ doesNotMatch: userRegex }),
  fc.record({ contains: fc.string({ maxLength: 5 }) }),
  fc.record({ equalToJson: fc.jsonValue({ maxDepth: 3 }) }),
  fc.record({ matchesJsonPath: fc.string({ maxLength: 12 }) }),
  fc.record({ sortOf: fc.string() }), // an unknown operator
  fc.jsonValue({ maxDepth: 2 }), // any JSON where an operator belongs
);
const stubShaped = fc.record(
  {
    request: fc.record(
      {
        method: fc.oneof(fc.constantFrom('GET', 'POST', 'ANY'), fc.jsonValue({ maxDepth: 1 })),
        urlPattern: fc.oneof(userRegex.map((r) => `/fz/${r}`), fc.jsonValue({ maxDepth: 1 })),
        urlPath: fc.string({ maxLength: 10 }).map((p) => `/fz/${p}`),
        headers: fc.dictionary(fc.constantFrom('X-A', 'Accept', ''), anyOperator, { maxKeys: 2 }),
        queryParameters: fc.dictionary(fc.constantFrom('q', 'page'), anyOperator, { maxKeys: 2 }),
        bodyPatterns: fc.array(anyOperator, { maxLength: 2 }),
      },
      { requiredKeys: [] },
    ),
    response: fc.oneof(
      fc.record({ status: fc.oneof(fc.integer({ min: -5, max: 1200 }), fc.jsonValue({ maxDepth: 1 })), body: fc.string({ maxLength: 20 }) }, { requiredKeys: [] }),
      fc.record({ status: fc.constant(200), bodyFileName: fc.string({ unit: fc.constantFrom('a', '.', '/', '\\', '%', '2', 'e'), maxLength: 12 }) }),
      fc.jsonValue({ maxDepth: 2 }),
    ),
    priority: fc.oneof(fc.integer({ min: -2, max: 10 }), fc.string({ maxLength: 3 })),
  },
  { requiredKeys: ['request', 'response'] },
);

describe('fuzzing the engine over HTTP', () => {
  it('answers any stub definition (bytes, JSON, stub-shaped JSON) with 201 or a 4xx, never an error, and stays consistent', async () => {
    const body = fc.oneof(
      stubShaped.map((s) => JSON.stringify(s)),
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
      fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
      stubShaped.map((s) => JSON.stringify(s).slice(0, -3)), // truncated
    );
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        tried.stubs++;
        const created = await call(`${engine.url}/__admin/mappings`, { method: 'POST', body: text });
        expect([201, 413, 422]).toContain(created.status);
        if (created.status === 201) {
          tried.stubsAccepted++;
          const id = JSON.parse(created.text).id as string;
          expect((await call(`${engine.url}/__admin/mappings/${id}`)).status).toBe(200);
          expect((await call(`${engine.url}/__admin/mappings/${id}`, { method: 'DELETE' })).status).toBe(200);
        }
      }),
      { seed: SEED, numRuns: RUNS * 2 },
    );
    expect((await call(`${engine.url}/__admin/mappings`)).text).toBe(JSON.stringify({ mappings: [], meta: { total: 0 } }));
    expect(tried.stubsAccepted).toBeGreaterThan(0);
  });

  it('never hangs on a user regex it accepted, whatever the request (catastrophic backtracking)', async () => {
    await fc.assert(
      fc.asyncProperty(userRegex, fc.constantFrom('urlPattern', 'header', 'body', 'query'), attackInput, async (regex, where, input) => {
        tried.regexes++;
        const request =
          where === 'urlPattern'
            ? { urlPattern: `/rx/${regex}` }
            : where === 'header'
              ? { urlPath: '/rx', headers: { 'X-In': { matches: regex } } }
              : where === 'query'
                ? { urlPath: '/rx', queryParameters: { q: { matches: regex } } }
                : { urlPath: '/rx', bodyPatterns: [{ matches: regex }] };
        const created = await call(`${engine.url}/__admin/mappings`, { method: 'POST', body: JSON.stringify({ request, response: { status: 200 } }) });
        expect([201, 422]).toContain(created.status);
        if (created.status !== 201) return;
        tried.regexesAccepted++;
        const id = JSON.parse(created.text).id as string;
        try {
          tried.requests++;
          const path = where === 'urlPattern' ? `/rx/${encodeURIComponent(input)}` : `/rx?q=${encodeURIComponent(input)}`;
          const served = await call(`${engine.url}${path}`, { method: 'POST', headers: { 'X-In': input.replace(/[^\x20-\x7e]/g, '') }, body: input });
          expect([200, 404]).toContain(served.status);
        } finally {
          await call(`${engine.url}/__admin/mappings/${id}`, { method: 'DELETE' });
        }
      }),
      { seed: SEED, numRuns: RUNS * 2 },
    );
    expect(tried.regexesAccepted).toBeGreaterThan(0); // the property was not vacuous
  });

  it('matches any request against a set of valid stubs without an error', async () => {
    const stubs = [
      { request: { method: 'POST', urlPath: '/m/json', bodyPatterns: [{ equalToJson: { a: 1 }, ignoreExtraElements: true }] }, response: { status: 201 } },
      { request: { urlPathPattern: '/m/[a-z]+', queryParameters: { q: { matches: '[0-9]{1,5}' } } }, response: { status: 202 } },
      { request: { urlPath: '/m/xml', bodyPatterns: [{ matchesXPath: '/a/b' }] }, response: { status: 203 } },
      { request: { urlPathTemplate: '/m/items/{id}', headers: { Accept: { contains: 'json' } } }, response: { status: 204 } },
      { request: { method: 'PUT', urlPath: '/m/path', bodyPatterns: [{ matchesJsonPath: '$.items[?(@.n > 2)]' }] }, response: { status: 205 } },
    ];
    const ids: string[] = [];
    for (const s of stubs) ids.push(JSON.parse((await call(`${engine.url}/__admin/mappings`, { method: 'POST', body: JSON.stringify(s) })).text).id);
    const pathChar = fc.constantFrom('a', 'z', '1', '/', '%20', '%', '..', '.', '~', '-', '_', 'é', '%ff', '{', '}', ';', '=', '&', '?');
    const request = fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
      path: fc.string({ unit: pathChar, maxLength: 12 }).map((p) => `/m/${p}`),
      accept: fc.string({ unit: fc.constantFrom('a', 'j', 's', 'o', 'n', '/', '*', ';', ' '), maxLength: 20 }),
      body: fc.oneof(fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)), fc.string({ maxLength: 40 }), fc.constant('<a><b>1</b></a>'), fc.constant('<a><b>')),
    });
    try {
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          tried.requests++;
          let served: { status: number; text: string };
          try {
            served = await call(`${engine.url}${r.path}`, { method: r.method, headers: { Accept: r.accept }, body: r.method === 'GET' ? undefined : r.body });
          } catch (err) {
            if ((err as Error).name === 'TimeoutError') throw err;
            return; // the client refused to send it (an invalid URL); nothing reached the engine
          }
          expect(served.status).not.toBe(500);
        }),
        { seed: SEED, numRuns: RUNS * 2 },
      );
    } finally {
      for (const id of ids) await call(`${engine.url}/__admin/mappings/${id}`, { method: 'DELETE' });
    }
    expect((await call(`${engine.url}/__admin/health`)).status).toBe(200);
  });
});

describe('fuzzing the read API query parameters', () => {
  it('answers any query string on /api/requests and /api/responses with 200 or a 400 problem', async () => {
    const key = fc.oneof(fc.constantFrom('page', 'size', 'method', 'status', 'statusClass', 'host', 'url', 'from', 'to', 'minDurationMs', 'source'), fc.string({ maxLength: 6 }));
    const value = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.integer({ min: -1_000_000, max: 10_000_000 }).map(String),
      fc.constantFrom('', ' ', '2xx', '9xx', 'GET', 'get', 'proxy', 'engine', '2026-11-22T10:00:00Z', '2026-13-45', 'NaN', '1e3', '0x10', '%', "'; DROP TABLE exchanges;--", '\u0000', '🙂'),
      fc.string({ unit: 'grapheme', maxLength: 8 }),
    );
    const query = fc.array(fc.tuple(key, value), { maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(query, fc.constantFrom('/api/requests', '/api/responses'), async (pairs, path) => {
        tried.queries++;
        const qs = new URLSearchParams(pairs).toString();
        const res = await fetch(`${logger.url}${path}?${qs}`, { signal: AbortSignal.timeout(HANG_MS) });
        expect([200, 400]).toContain(res.status);
        if (res.status === 400) {
          expect(res.headers.get('content-type')).toContain('application/problem+json');
          expect((await res.json()).errors?.length).toBeGreaterThan(0);
        } else {
          expect(await res.json()).toMatchObject({ content: expect.any(Array), totalElements: expect.any(Number) });
        }
      }),
      { seed: SEED, numRuns: RUNS * 2 },
    );
    expect((await fetch(`${logger.url}/health/ready`)).status).toBe(200);
  });
});
