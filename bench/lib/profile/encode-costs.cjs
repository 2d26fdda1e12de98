// What the gateway's capture encoding costs per event, and what the cheaper-looking alternatives would save
// (BENCHMARKS.md, "2026-11-26"). CPU-bound loops in one process, each alternative measured in turn, twice;
// µs per event of a small proxied exchange as the gateway captures it (5 request headers, 5 response headers,
// a 39-byte JSON response body). Needs a build (npx tsc -b tsconfig.json).
//   node bench/lib/profile/encode-costs.cjs
'use strict';
const { join } = require('node:path');
const { randomUUID } = require('node:crypto');

const root = join(__dirname, '../../..');
const { buildTrafficEvent, captureBody } = require(join(root, 'services/proxy-gateway/dist/capture/build-traffic-event.js'));
const { BodyRecorder } = require(join(root, 'services/proxy-gateway/dist/capture/body-recorder.js'));
const { redactHeaders } = require(join(root, 'services/proxy-gateway/dist/capture/redact-headers.js'));
const { encodeEventJson, encodeTrafficEvent } = require(join(root, 'packages/bus/dist/index.js'));

const redacted = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
const requestHeaders = { host: '127.0.0.1:20001', 'user-agent': 'autocannon', connection: 'keep-alive', 'x-forwarded-for': '127.0.0.1', accept: '*/*' };
const responseHeaders = { 'content-type': 'application/json', 'content-length': '39', date: 'Thu, 26 Nov 2026 13:44:23 GMT', connection: 'keep-alive', 'keep-alive': 'timeout=5' };
const chunk = Buffer.from(JSON.stringify({ ok: true, id: 42, name: 'small body' }));
const url = 'http://127.0.0.1:33333/small';

function recorder() {
  const r = new BodyRecorder(256 * 1024);
  r.record(chunk);
  return r;
}

/** The gateway's path today: the event object (headers redacted into copies), then JSON.stringify and its bytes. */
function current() {
  const event = buildTrafficEvent({
    id: randomUUID(),
    startedAt: new Date(),
    durationMs: 1.234567,
    source: 'proxy',
    requestId: randomUUID(),
    clientAddress: '127.0.0.1',
    method: 'GET',
    url,
    requestHeaders,
    requestBody: captureBody(undefined, requestHeaders),
    response: { status: 200, statusMessage: 'OK', headers: responseHeaders, body: captureBody(recorder(), responseHeaders) },
    redactHeaders: redacted,
  });
  return encodeTrafficEvent(event).json;
}

function headersJson(headers) {
  for (const name of Object.keys(headers)) if (redacted.has(name.toLowerCase())) return JSON.stringify(redactHeaders(headers, redacted));
  return JSON.stringify(headers);
}

let cachedSecond = -1;
let cachedPrefix = '';
/** toISOString of an epoch-ms time, the part up to the second formatted once per second. */
function isoOf(ms) {
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond) {
    const full = new Date(second * 1000).toISOString();
    cachedSecond = second;
    cachedPrefix = full.slice(0, full.length - 4);
  }
  const millis = ms - second * 1000;
  return `${cachedPrefix}${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

/** The same JSON written directly: no event object, no header copies when nothing is to be redacted. */
function direct(iso) {
  const body = captureBody(recorder(), responseHeaders);
  const json = `{"id":"${randomUUID()}","startedAt":"${iso(Date.now())}","durationMs":${Math.round(1.234567 * 1000) / 1000},"source":"proxy","requestId":"${randomUUID()}","clientAddress":"127.0.0.1","method":"GET","url":${JSON.stringify(url)},"request":{"headers":${headersJson(requestHeaders)}},"response":{"status":200,"statusMessage":"OK","headers":${headersJson(responseHeaders)},"body":{"encoding":"${body.encoding}","data":${JSON.stringify(body.data)},"size":${body.size},"truncated":${body.truncated},"contentType":${JSON.stringify(body.contentType)}}}}`;
  return encodeEventJson(json);
}

const jsons = Array.from({ length: 200 }, () => current().toString('latin1'));
const viaDate = (ms) => new Date(ms).toISOString();

/** The XADD of a batch of 200 as the publisher frames it: each event's bytes a separate write (UncopiedCommand). */
function perEventBytes() {
  let n = 0;
  for (const json of jsons) n += encodeEventJson(json).length;
  return n;
}

/** The same batch as one string (the events' JSON kept as strings and joined with their framing), then its bytes. */
function joinedString() {
  let pending = '*401\r\n$4\r\nxadd\r\n';
  for (const json of jsons) pending += `$5\r\nevent\r\n$${Buffer.byteLength(json)}\r\n${json}\r\n`;
  return Buffer.from(pending, 'utf8').length;
}

function measure(name, fn, perCall = 1) {
  const iterations = Math.max(2000, Math.round(200_000 / perCall));
  for (let i = 0; i < iterations / 10; i++) fn();
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn();
  const us = Number(process.hrtime.bigint() - started) / 1000 / iterations / perCall;
  console.log(`${name.padEnd(58)} ${us.toFixed(2)} µs/event`);
}

// the same JSON but for the ids and the time
const comparable = (bytes) => bytes.toString().replace(/"[0-9a-f-]{36}"/g, '"id"').replace(/"startedAt":"[^"]+"/, '');
if (comparable(direct(isoOf)) !== comparable(current())) throw new Error('the direct writer does not write the same JSON');
for (let pass = 1; pass <= 2; pass++) {
  console.log(`pass ${pass}`);
  measure('event object + JSON.stringify + bytes (the gateway today)', current);
  measure('direct JSON writer, Date#toISOString', () => direct(viaDate));
  measure('direct JSON writer, ISO per second cached', () => direct(isoOf));
  measure('Date#toISOString alone', () => viaDate(Date.now()));
  measure('batch of 200: each event to bytes (today)', perEventBytes, 200);
  measure('batch of 200: one joined string to bytes', joinedString, 200);
}
