#!/usr/bin/env node
// The capture publisher alone (TrafficPublisher from @mockyard/bus) against the real Redis: CPU µs per event of
// the publishing process and of redis-server (from /proc), and the stream entries written, publishing small
// traffic events at a steady ~10,000 events/s (100 every 10 ms). Isolates the publisher's share of the
// gateway's capture cost from the rest of a proxied request, which a full gateway run on a shared machine
// cannot resolve below ~15%.
// Options: --events N (default 60000), --body-bytes N (captured response body, default 40), --rounds N
// (default 3); BENCH_COMPARE_BUS=<another build>/packages/bus/dist/index.js measures that build too, in
// interleaved rounds (each run its own process). REDIS_URL (default redis://127.0.0.1:6379), a key prefix
// unique to the run, deleted after it. Needs a build (npx tsc -b tsconfig.json) and Linux (/proc).
import { execFileSync, execSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './lib/load.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const events = Number(arg('events', 60000));
const bodyBytes = Number(arg('body-bytes', 40));
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

if (process.argv.includes('--child')) {
  const require = createRequire(join(root, 'packages/bus/package.json'));
  const Redis = require('ioredis');
  const { TrafficPublisher, Spool, publisherRedisOptions, DETACHED_BODY_MIN_BYTES } = require(arg('bus'));
  const redisPid = Number(arg('redis-pid'));
  const redisCpuUs = () => {
    const f = readFileSync(`/proc/${redisPid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10_000;
  };
  const redis = new Redis(redisUrl, publisherRedisOptions);
  await new Promise((r) => redis.once('ready', r));
  const prefix = `bench-publisher-${process.pid}`;
  const spoolDir = mkdtempSync(join(tmpdir(), 'bench-publisher-'));
  const silent = { debug() {}, info() {}, warn() {}, error() {} };
  const publisher = new TrafficPublisher({ redis, prefix, spool: new Spool({ dir: spoolDir, maxBytes: 1 << 30 }), logger: silent, maxStreamLength: 500 });
  publisher.start();
  const data = 'x'.repeat(bodyBytes);
  // As the gateway hands them over: a text body from DETACHED_BODY_MIN_BYTES on as its own bytes (each exchange's
  // a fresh buffer), beside the event.
  const detach = bodyBytes >= DETACHED_BODY_MIN_BYTES;
  const headers = { 'content-type': 'application/json', 'content-length': String(bodyBytes), date: new Date().toUTCString(), connection: 'keep-alive', 'keep-alive': 'timeout=5' };
  const event = (i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    startedAt: new Date().toISOString(),
    durationMs: 2.188,
    source: 'proxy',
    requestId: '84ddbe97-ba78-4c0a-9889-e9543679b73b',
    clientAddress: '127.0.0.1',
    method: 'GET',
    url: 'http://127.0.0.1:18500/small',
    request: { headers: { host: '127.0.0.1:18512', connection: 'keep-alive' } },
    response: { status: 200, statusMessage: 'OK', headers, body: { encoding: 'utf8', data: detach ? '' : data, size: bodyBytes, truncated: false, contentType: 'application/json' } },
  });
  const cpu0 = process.cpuUsage();
  const redis0 = redisCpuUs();
  for (let i = 0; i < events; i += 100) {
    for (let j = i; j < Math.min(i + 100, events); j++) publisher.publish(event(j), detach ? { response: Buffer.from(data) } : undefined);
    await new Promise((r) => setTimeout(r, 10));
  }
  await publisher.flush();
  const cpu = process.cpuUsage(cpu0);
  const redisUs = redisCpuUs() - redis0;
  const info = await redis.xinfo('STREAM', `${prefix}:traffic`);
  const { published, spooled } = publisher.counters();
  await publisher.stop();
  await redis.del(`${prefix}:traffic`);
  redis.disconnect();
  rmSync(spoolDir, { recursive: true, force: true });
  process.stdout.write(JSON.stringify({ publisherUsPerEvent: (cpu.user + cpu.system) / events, redisUsPerEvent: redisUs / events, entries: info[info.indexOf('entries-added') + 1], published, spooled }));
  process.exit(0);
}

const redisPid = execSync('pgrep -x redis-server').toString().trim().split('\n')[0];
if (!redisPid) throw new Error('no redis-server process found (this bench reads its CPU from /proc)');
const builds = { 'this build': join(root, 'packages/bus/dist/index.js'), ...(process.env.BENCH_COMPARE_BUS ? { compare: resolve(process.env.BENCH_COMPARE_BUS) } : {}) };
const rounds = Number(arg('rounds', 3));
const samples = Object.fromEntries(Object.keys(builds).map((k) => [k, []]));
for (let round = 0; round < rounds; round++) {
  for (const [name, bus] of Object.entries(builds)) {
    const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', '--bus', bus, '--redis-pid', redisPid, '--events', String(events), '--body-bytes', String(bodyBytes)], { env: process.env });
    samples[name].push(JSON.parse(out.toString()));
  }
}
console.log(`${events} events (${bodyBytes}-byte bodies) at ~10,000/s, ${rounds} interleaved rounds, medians:`);
for (const [name, list] of Object.entries(samples)) {
  console.log(
    `${name.padEnd(11)} publisher ${median(list.map((s) => s.publisherUsPerEvent)).toFixed(1)} µs/event, redis ${median(list.map((s) => s.redisUsPerEvent)).toFixed(2)} µs/event, ${median(list.map((s) => s.entries))} stream entries, published ${median(list.map((s) => s.published))}, spooled ${median(list.map((s) => s.spooled))}`,
  );
}
