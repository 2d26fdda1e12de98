// Fault: slow and stuck peers around the gateway, all at once while normal traffic flows: a target that
// never answers, clients that send their headers one byte a second (on the public and the forward-proxy
// port), and clients that request a large body and never read it. Timeouts must fire, the gateway's
// memory must stay bounded and the normal traffic must be unaffected. Real processes.
import net from 'node:net';
import { createTestRedis, freePort, type TestRedis } from '@mockyard/testkit';
import { percentile, reportFigure, startLoad, waitUntil } from './support/load';
import { startService, type ServiceProcess } from './support/service-process';
import { startUpstream, type Upstream } from './support/upstream';

jest.setTimeout(170_000);
const PROXY_TIMEOUT_MS = 2000;
const SLOW_HEADER_CLIENTS = 20;
const NON_READING_CLIENTS = 10;
const BIG_MIB = 200;
/** The gateway's default proxy.idle-timeout-ms. */
const IDLE_TIMEOUT_MS = 45_000;

let redis: TestRedis;
let upstream: Upstream;
let gateway: ServiceProcess;
let proxyPort: number;
const sockets: net.Socket[] = [];
let nonReadersClosedByGateway = -1;

beforeAll(async () => {
  redis = createTestRedis();
  upstream = await startUpstream();
  proxyPort = await freePort();
  const dead = `http://127.0.0.1:${await freePort()}`;
  gateway = await startService('proxy-gateway', await freePort(), {
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    SERVICE_PROXY_PORT: String(proxyPort),
    LOGGER_URL: dead,
    HUB_API_URL: dead,
    WEB_URL: dead,
    PROXY_TIMEOUT_MS: String(PROXY_TIMEOUT_MS),
  });
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await gateway?.stop();
  await upstream?.close();
  await redis?.cleanup();
});

/** A raw connection that sends a request line, then one header byte a second; resolves when the server closes it. */
function slowHeaderClient(port: number, requestLine: string): { closedAfterMs: Promise<number>; answer: () => string } {
  const socket = net.connect(port, '127.0.0.1');
  sockets.push(socket);
  const started = Date.now();
  let answer = '';
  socket.on('data', (c) => (answer += c.toString()));
  socket.on('error', () => undefined);
  const header = 'X-Slow: ' + 'a'.repeat(10_000);
  let i = 0;
  socket.on('connect', () => socket.write(`${requestLine}\r\nHost: 127.0.0.1\r\n`));
  const timer = setInterval(() => {
    if (!socket.destroyed && socket.writable) socket.write(header[i++ % header.length]);
  }, 1000);
  const closedAfterMs = new Promise<number>((resolve) =>
    socket.once('close', () => {
      clearInterval(timer);
      resolve(Date.now() - started);
    }),
  );
  return { closedAfterMs, answer: () => answer };
}

/** Sends a GET for a large body and never reads: the socket is paused, so the kernel buffers fill up. */
function nonReadingClient(url: string): { socket: net.Socket; closed: () => boolean } {
  const target = new URL(url);
  const socket = net.connect(Number(target.port), '127.0.0.1');
  sockets.push(socket);
  let closed = false;
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  socket.on('connect', () => {
    socket.write(`GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    socket.pause();
  });
  return { socket, closed: () => closed };
}

it('times out a silent target, drops slow-header clients, bounds memory under non-reading clients, and serves everyone else', async () => {
  await new Promise((r) => setTimeout(r, 2000));
  const rssStart = gateway.rssBytes();
  const load = startLoad({ ratePerS: 10, request: (i) => ({ url: `${gateway.url}/proxy?url=${encodeURIComponent(`${upstream.url}/echo/normal-${i}`)}` }) });
  try {
    // Clients that never read a 200 MiB download.
    const bigUrl = `${gateway.url}/proxy?url=${encodeURIComponent(`${upstream.url}/big/${BIG_MIB}`)}`;
    const nonReaders = Array.from({ length: NON_READING_CLIENTS }, () => nonReadingClient(bigUrl));
    const nonReadersSince = Date.now();
    // Clients that send headers one byte a second, on both ports.
    const target = encodeURIComponent(`${upstream.url}/echo/slow`);
    const slow = [
      ...Array.from({ length: SLOW_HEADER_CLIENTS }, () => slowHeaderClient(Number(new URL(gateway.url).port), `GET /proxy?url=${target} HTTP/1.1`)),
      ...Array.from({ length: 5 }, () => slowHeaderClient(proxyPort, `GET ${upstream.url}/echo/slow HTTP/1.1`)),
    ];
    // A target that never answers: every call is a 504 problem after proxy.timeout-ms.
    const hung = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const started = Date.now();
        const res = await fetch(`${gateway.url}/proxy?url=${encodeURIComponent(`${upstream.url}/hang`)}`);
        return { status: res.status, type: res.headers.get('content-type'), ms: Date.now() - started, body: await res.text() };
      }),
    );
    expect(hung.map((h) => h.status)).toEqual(Array(20).fill(504));
    expect(hung.every((h) => h.type?.includes('application/problem+json'))).toBe(true);

    await new Promise((r) => setTimeout(r, 10_000));
    const rssWithNonReaders = gateway.rssBytes();
    // Backpressure, not buffering: 10 × 200 MiB are held by nobody.
    expect(rssWithNonReaders).toBeLessThan(rssStart * 1.5 + 100 * 1024 * 1024);

    const slowClosed = await Promise.all(slow.map((s) => Promise.race([s.closedAfterMs, new Promise<number>((r) => setTimeout(() => r(-1), 120_000).unref())])));
    const rssEnd = gateway.rssBytes();
    // The gateway's idle timeout closes the non-readers' connections and aborts the downloads behind them.
    // A paused client cannot see that close (it never reads the FIN), the upstream can: its downloads end.
    // proxy.idle-timeout-ms is 45 s and a stalled write gets two periods: up to 90 s after they stopped reading.
    const idleDeadlineMs = Math.max(5_000, nonReadersSince + 2 * IDLE_TIMEOUT_MS + 20_000 - Date.now());
    nonReadersClosedByGateway = await waitUntil(() => upstream.openSockets() <= 8, idleDeadlineMs, 'non-readers released').then(
      () => NON_READING_CLIENTS,
      () => nonReaders.filter((c) => c.closed()).length,
    );
    for (const c of nonReaders) c.socket.destroy();
    await waitUntil(() => upstream.openSockets() <= 8, 15_000, 'upstream downloads aborted after the non-readers left');
    load.stop();
    const samples = await load.done;

    const slowHeaderAnswers = [...new Set(slow.map((s) => s.answer().split('\r\n')[0]))];
    reportFigure('slow-peers', {
      silentTargetCalls: hung.length,
      silentTarget504P50Ms: percentile(hung.map((h) => h.ms), 50),
      slowHeaderClients: slow.length,
      slowHeaderClosedAfterMsMin: Math.min(...slowClosed),
      slowHeaderClosedAfterMsMax: Math.max(...slowClosed),
      slowHeaderAnswers,
      nonReadingClients: NON_READING_CLIENTS,
      nonReadersClosedByGateway,
      rssStartMiB: Math.round(rssStart / 1048576),
      rssWithNonReadersMiB: Math.round(rssWithNonReaders / 1048576),
      rssEndMiB: Math.round(rssEnd / 1048576),
      normalRequests: samples.length,
      normalErrors: 0,
      normalP99Ms: percentile(samples.map((s) => s.latencyMs), 99),
    });
    expect(samples.filter((s) => s.status !== 200)).toEqual([]);
    expect(slowClosed.filter((ms) => ms < 0)).toEqual([]);
    // proxy.headers-timeout-ms: told why, on both ports
    expect(slowHeaderAnswers).toEqual(['HTTP/1.1 408 Request Timeout']);
    expect(rssEnd).toBeLessThan(rssStart * 1.5 + 100 * 1024 * 1024);
    expect((await fetch(`${gateway.url}/health/live`)).status).toBe(200);
  } finally {
    load.stop();
    await load.done;
  }
});

// proxy.idle-timeout-ms (default 45 s; Node gives a stalled write two periods, so about 90 s here) closes a
// client connection with no traffic either way, and with it the upstream request behind it.
it('closes the connections of clients that read nothing for over a minute', () => {
  expect(nonReadersClosedByGateway).toBe(NON_READING_CLIENTS);
});
