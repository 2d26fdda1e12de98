import net from 'node:net';
import { createTestRedis } from '@mockyard/testkit';
import { startTestGateway } from './support/start-test-gateway';
import { startUpstream, type UpstreamServer } from './support/upstream-server';

const redis = createTestRedis();
let upstream: UpstreamServer;
const upstreamSockets = new Set<net.Socket>();
/** 200 MiB streamed honouring backpressure. */
const BIG = `/download?bytes=${200 * 1024 * 1024}`;
/** Answered at once, with SMALL_BODY. */
const SMALL = '/status/200';
const SMALL_BODY = 'status 200';

beforeAll(async () => {
  upstream = await startUpstream();
  upstream.server.on('connection', (s: net.Socket) => {
    upstreamSockets.add(s);
    s.once('close', () => upstreamSockets.delete(s));
  });
});
afterAll(async () => {
  await upstream.close(0);
  await redis.cleanup();
});

async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/** A client that sends one request on the gateway's public port and never reads the answer. */
function nonReadingClient(port: number, path: string): net.Socket {
  const socket = net.connect(port, '127.0.0.1', () => {
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    socket.pause();
  });
  socket.on('error', () => undefined);
  return socket;
}

describe('client idle timeout (proxy.idle-timeout-ms)', () => {
  it('closes a client that reads nothing and aborts the download behind it, while other clients are served', async () => {
    const gateway = await startTestGateway({ REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, PROXY_IDLE_TIMEOUT_MS: '1000' });
    const stuck: net.Socket[] = [];
    try {
      stuck.push(...[1, 2, 3].map(() => nonReadingClient(gateway.port, `/proxy?url=${encodeURIComponent(`${upstream.url}${BIG}`)}`)));
      expect(await waitFor(() => upstreamSockets.size === 3, 5000)).toBe(true);
      // Normal traffic keeps flowing meanwhile.
      const normal = await fetch(`${gateway.url}/proxy?url=${encodeURIComponent(`${upstream.url}${SMALL}`)}`);
      expect(await normal.text()).toBe(SMALL_BODY);
      // The stalled downloads are aborted once their clients were idle for the timeout (the paused clients
      // themselves cannot see the close: they never read the FIN).
      expect(await waitFor(() => [...upstreamSockets].filter((s) => s.bytesWritten > 1024 * 1024).length === 0, 15_000)).toBe(true);
    } finally {
      for (const s of stuck) s.destroy();
      await gateway.stop();
    }
  });

  it('keeps idle connections open when the timeout is 0', async () => {
    const gateway = await startTestGateway({ REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, PROXY_IDLE_TIMEOUT_MS: '0' });
    const stuck = nonReadingClient(gateway.port, `/proxy?url=${encodeURIComponent(`${upstream.url}${BIG}`)}`);
    try {
      expect(await waitFor(() => [...upstreamSockets].some((s) => s.bytesWritten > 1024 * 1024), 5000)).toBe(true);
      await new Promise((r) => setTimeout(r, 2500));
      expect([...upstreamSockets].some((s) => s.bytesWritten > 1024 * 1024)).toBe(true);
    } finally {
      stuck.destroy();
      await gateway.stop();
    }
  });
});

/**
 * A client that sends a request line, then one header byte every 200 ms, never finishing its headers, and
 * ignores the server's FIN (half-open): only a server that closes the connection both ways ends it.
 */
function slowHeaderClient(port: number, requestLine: string): { closed: Promise<void>; answer: () => string } {
  const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => socket.write(`${requestLine}\r\nHost: 127.0.0.1\r\n`));
  let answer = '';
  socket.on('data', (c: Buffer) => (answer += c.toString()));
  socket.on('error', () => undefined);
  const timer = setInterval(() => socket.writable && socket.write('X'), 200);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  void closed.then(() => clearInterval(timer));
  return { closed, answer: () => answer };
}

describe('client headers timeout (proxy.headers-timeout-ms)', () => {
  it('answers 408 and closes clients that do not finish their headers in time, on both ports, while others are served', async () => {
    const gateway = await startTestGateway({ REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, PROXY_HEADERS_TIMEOUT_MS: '1000' });
    try {
      const slow = [
        slowHeaderClient(gateway.port, `GET /proxy?url=${encodeURIComponent(`${upstream.url}${SMALL}`)} HTTP/1.1`),
        slowHeaderClient(gateway.proxyPort, `GET ${upstream.url}${SMALL} HTTP/1.1`),
      ];
      // A client whose headers arrive in pieces, but within the timeout, is answered.
      const pieces = await new Promise<string>((resolve, reject) => {
        let answer = '';
        const socket = net.connect(gateway.port, '127.0.0.1');
        socket.on('error', reject);
        socket.on('data', (c: Buffer) => {
          answer += c.toString();
          if (answer.endsWith(SMALL_BODY)) socket.end();
        });
        socket.on('close', () => resolve(answer));
        const parts = [`GET /proxy?url=${encodeURIComponent(`${upstream.url}${SMALL}`)} HTTP/1.1\r\n`, 'Host: 127.0.0.1\r\n', 'Connection: close\r\n\r\n'];
        parts.forEach((part, i) => setTimeout(() => socket.write(part), i * 200));
      });
      expect(pieces).toMatch(/^HTTP\/1\.1 200 /);
      let deadline: NodeJS.Timeout | undefined;
      const closedInTime = await Promise.race([Promise.all(slow.map((s) => s.closed)).then(() => true), new Promise((r) => (deadline = setTimeout(() => r(false), 4_000)))]);
      clearTimeout(deadline);
      expect(closedInTime).toBe(true);
      expect(slow.map((s) => s.answer().split('\r\n')[0])).toEqual(['HTTP/1.1 408 Request Timeout', 'HTTP/1.1 408 Request Timeout']);
    } finally {
      await gateway.stop();
    }
  });
});

describe('bad client requests on the forward-proxy port', () => {
  it('answers oversized headers with 431 and unparsable requests with 400, as Node does on the public port', async () => {
    // a headers timeout above Node's default requestTimeout (5 min) is accepted
    const gateway = await startTestGateway({ REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, PROXY_HEADERS_TIMEOUT_MS: '400000' });
    const firstLine = (port: number, request: string) =>
      new Promise<string>((resolve) => {
        let answer = '';
        const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
        socket.on('data', (c: Buffer) => (answer += c.toString()));
        socket.on('error', () => undefined);
        socket.on('close', () => resolve(answer.split('\r\n')[0]));
      });
    try {
      const oversized = `GET ${upstream.url}${SMALL} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
      expect(await firstLine(gateway.proxyPort, oversized)).toBe('HTTP/1.1 431 Request Header Fields Too Large');
      expect(await firstLine(gateway.port, oversized.replace(`GET ${upstream.url}${SMALL}`, 'GET /proxy'))).toBe('HTTP/1.1 431 Request Header Fields Too Large');
      expect(await firstLine(gateway.proxyPort, 'NOT HTTP AT ALL\r\n\r\n')).toBe('HTTP/1.1 400 Bad Request');
    } finally {
      await gateway.stop();
    }
  });
});
