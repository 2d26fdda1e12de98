import net from 'node:net';
import { createLogger } from '@mockyard/service-kit';
import { EngineClientPool } from '../src/adapters/engine.client';
import type { EngineRef } from '../src/domain/engine-ref';
import { EngineUnreachableError } from '../src/domain/hub-errors';

/**
 * An engine stand-in speaking raw HTTP/1.1: every connection answers its first request with keep-alive, and,
 * when `isClosingKeptAlive`, closes on the second one without answering: what a server does when its
 * keep-alive timeout fires as the client sends on the idle connection.
 */
async function startEngine(isClosingKeptAlive: boolean) {
  const requests: { connection: number; line: string }[] = [];
  let connections = 0;
  const server = net.createServer((socket) => {
    const connection = ++connections;
    let served = 0;
    let buffered = '';
    socket.on('data', (data) => {
      buffered += data.toString('latin1');
      for (let end = buffered.indexOf('\r\n\r\n'); end >= 0; end = buffered.indexOf('\r\n\r\n')) {
        const head = buffered.slice(0, end);
        const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.slice(end + 4 + length);
        served += 1;
        requests.push({ connection, line: head.split('\r\n')[0] });
        if (isClosingKeptAlive && served > 1) {
          socket.destroy();
          return;
        }
        const body = '{"mappings":[],"meta":{"total":0}}';
        socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n${body}`);
      }
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    ref: { id: 'local', name: 'local', url: `http://127.0.0.1:${port}`, isLocal: true } satisfies EngineRef,
    requests,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function createPool(idleSocketTimeoutMs?: number) {
  return new EngineClientPool({
    timeoutMs: 5000,
    insecureTls: false,
    breaker: { volumeThreshold: 100, errorThresholdPercentage: 50, resetTimeoutMs: 1000, rollingWindowMs: 10_000 },
    logger: createLogger({ service: 'test', level: 'silent' }),
    idleSocketTimeoutMs,
  });
}

describe('the hub\'s connections to an engine (real sockets)', () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  it('sends an idempotent call again on a new connection when the engine closed the kept-alive one', async () => {
    const engine = await startEngine(true);
    const pool = createPool();
    cleanups.push(() => pool.close(), engine.close);
    expect((await pool.call(engine.ref, { method: 'GET', path: '/mappings' })).status).toBe(200);
    const reply = await pool.call(engine.ref, { method: 'GET', path: '/mappings' });
    expect(reply.status).toBe(200);
    expect(engine.requests.map((r) => r.connection)).toEqual([1, 1, 2]);
    expect(await pool.probe(engine.ref, 5000)).toMatchObject({ isUp: true, error: null });
  });

  it('does not send a POST twice: the engine may have acted on it, so the call fails', async () => {
    const engine = await startEngine(true);
    const pool = createPool();
    cleanups.push(() => pool.close(), engine.close);
    await pool.call(engine.ref, { method: 'GET', path: '/mappings' });
    await expect(pool.call(engine.ref, { method: 'POST', path: '/mappings', body: { request: {}, response: {} } })).rejects.toBeInstanceOf(EngineUnreachableError);
    expect(engine.requests.filter((r) => r.line.startsWith('POST'))).toHaveLength(1);
  });

  it('closes a connection idle longer than idleSocketTimeoutMs instead of sending on it later', async () => {
    const engine = await startEngine(false);
    const pool = createPool(100);
    cleanups.push(() => pool.close(), engine.close);
    await pool.call(engine.ref, { method: 'GET', path: '/mappings' });
    await pool.call(engine.ref, { method: 'GET', path: '/mappings' });
    expect(engine.connections()).toBe(1);
    await new Promise((r) => setTimeout(r, 300));
    await pool.call(engine.ref, { method: 'GET', path: '/mappings' });
    expect(engine.connections()).toBe(2);
  });
});
