// Micro-benchmark of the matcher alone: a full scan over N stubs that the engine cannot index by path
// (urlPathPattern + method + a header), the request matching only the last one, as the serving path
// does it (compiled patterns, exactOnly). Run: npx tsc -b packages/matching && node packages/matching/bench/match-throughput.mjs
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const { compileRequestPattern, matchRequestPattern, toMatchableRequest, findNearMisses } = require('../dist/index.js');

function build(count) {
  const stubs = [];
  for (let i = 0; i < count; i++) {
    stubs.push(compileRequestPattern({ method: i % 2 ? 'GET' : 'POST', urlPathPattern: `/api/v1/resource-${i}/[0-9]+`, headers: { Accept: { contains: 'json' } } }));
  }
  return stubs;
}

function scan(stubs, request) {
  for (const stub of stubs) {
    const result = matchRequestPattern(stub, request, { exactOnly: true });
    if (result.isExactMatch) return result;
  }
  return null;
}

for (const count of [10, 1000]) {
  const stubs = build(count);
  const last = count - 1;
  const method = last % 2 ? 'GET' : 'POST';
  const makeRequest = () => toMatchableRequest({ method, url: `/api/v1/resource-${last}/42?x=1`, headers: { host: 'localhost:8080', accept: 'application/json' } });
  for (let i = 0; i < 200; i++) scan(stubs, makeRequest());
  const rounds = count >= 1000 ? 3000 : 100000;
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) if (!scan(stubs, makeRequest())) throw new Error('no match');
  const elapsedUs = Number(process.hrtime.bigint() - start) / 1000;
  console.log(`${count} non-indexable stubs: ${(elapsedUs / rounds).toFixed(1)} µs per request (full scan, match at the end), ${Math.round(rounds / (elapsedUs / 1e6))} requests/s`);
}

const stubs1000 = Array.from({ length: 1000 }, (_, i) => ({ id: String(i), uuid: String(i), request: { method: 'GET', urlPath: `/other/${i}`, headers: { Accept: { equalTo: 'text/plain' } } }, response: {} }));
const request = toMatchableRequest({ method: 'GET', url: '/other/12x', headers: { host: 'h', accept: 'application/json' } });
const start = process.hrtime.bigint();
for (let i = 0; i < 50; i++) findNearMisses(stubs1000, request);
console.log(`near misses over 1000 stubs (unmatched path): ${(Number(process.hrtime.bigint() - start) / 1e6 / 50).toFixed(2)} ms per request`);
