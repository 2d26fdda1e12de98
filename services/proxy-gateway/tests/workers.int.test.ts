import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestRedis, type TestRedis } from '@mockyard/testkit';
import { TrafficStreamReader } from './support/traffic-stream';
import { startUpstream, type UpstreamServer } from './support/upstream-server';

const MAIN = join(__dirname, '..', 'dist', 'main.js');

interface GatewayProcess {
  child: ChildProcess;
  port: number;
  /** Worker index → pid, from the "listening" log lines (a restarted worker replaces its entry). */
  workers: Map<number, number>;
  logLines: Record<string, unknown>[];
  exited: Promise<number | null>;
}

/** The built gateway as its own process (`proxy.workers` = 2), its ports and workers read off its JSON log. */
async function startGatewayProcess(env: Record<string, string>, nodeFlags: string[] = []): Promise<GatewayProcess> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build first`);
  const child = spawn(process.execPath, [...nodeFlags, MAIN], { env: { ...process.env, PROXY_WORKERS: '2', SERVER_PORT: '0', SERVICE_PROXY_PORT: '0', LOG_LEVEL: 'INFO', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const gateway: GatewayProcess = { child, port: 0, workers: new Map(), logLines: [], exited };
  let buffered = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      try {
        const entry = JSON.parse(line) as Record<string, unknown> & { pid?: number };
        gateway.logLines.push(entry);
        if (entry.msg === 'proxy-gateway listening') {
          gateway.port = entry.port as number;
          gateway.workers.set(entry.worker as number, entry.pid!);
        }
      } catch {
        // not a log line
      }
    }
  });
  child.stderr!.resume();
  return gateway;
}

async function waitUntil(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The node flags a process was started with (Linux /proc). */
function nodeFlagsOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((arg) => arg.startsWith('--'));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('proxy-gateway with several worker processes (proxy.workers)', () => {
  let upstream: UpstreamServer;
  let redis: TestRedis;
  let spoolDir: string;
  let gateway: GatewayProcess | undefined;

  beforeAll(async () => {
    upstream = await startUpstream();
    redis = createTestRedis();
  });
  beforeEach(() => {
    spoolDir = mkdtempSync(join(tmpdir(), 'gw-workers-'));
  });
  afterEach(async () => {
    if (gateway && gateway.child.exitCode === null) {
      gateway.child.kill('SIGKILL');
      await gateway.exited;
      for (const pid of gateway.workers.values()) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
    gateway = undefined;
    rmSync(spoolDir, { recursive: true, force: true });
  });
  afterAll(async () => {
    await redis.cleanup();
    await upstream.close(100);
  });

  it('serves one port from two workers, publishes every exchange once, and sums the capture counters', async () => {
    gateway = await startGatewayProcess({ REDIS_URL: redis.url, REDIS_PREFIX: `${redis.prefix}:sum`, CAPTURE_SPOOL_DIR: spoolDir });
    await waitUntil(() => gateway!.workers.size === 2, 'two workers listening');
    expect(new Set(gateway.workers.values()).size).toBe(2);

    const total = 40;
    const statuses = await Promise.all(
      Array.from({ length: total }, (_, i) => fetch(`http://127.0.0.1:${gateway!.port}/proxy?url=${encodeURIComponent(`${upstream.url}/echo?n=${i}`)}`, { headers: { connection: 'close' } }).then((r) => r.status)),
    );
    expect(statuses).toEqual(Array(total).fill(200));

    const stream = new TrafficStreamReader(redis.url, `${redis.prefix}:sum`);
    try {
      const events = await stream.waitFor((e) => e.url.includes('/echo?n='), total);
      expect(new Set(events.map((e) => e.url)).size).toBe(total);
      expect(events).toHaveLength(total);
    } finally {
      stream.close();
    }
    // Fresh connections are handed out round-robin: both workers served some of them.
    let ready: { capture: { published: number; workers: { count: number; reporting: number } } } | undefined;
    await waitUntil(async () => {
      ready = (await (await fetch(`http://127.0.0.1:${gateway!.port}/health/ready`)).json()) as typeof ready;
      return ready!.capture.published >= total;
    }, 'the summed counters');
    expect(ready!.capture).toMatchObject({ published: total, workers: { count: 2, reporting: 2 } });
  });

  it('replaces a worker that dies, keeps serving, and stops every worker on SIGTERM with exit code 0', async () => {
    gateway = await startGatewayProcess({ REDIS_URL: redis.url, REDIS_PREFIX: `${redis.prefix}:restart`, CAPTURE_SPOOL_DIR: spoolDir });
    await waitUntil(() => gateway!.workers.size === 2, 'two workers listening');
    const victim = gateway.workers.get(1)!;
    process.kill(victim, 'SIGKILL');
    await waitUntil(() => gateway!.workers.get(1) !== victim, 'worker 1 restarted');
    const replacement = gateway.workers.get(1)!;
    expect(alive(replacement)).toBe(true);
    // every worker, the replacement too, runs with the GC flags of WORKER_NODE_FLAGS
    for (const pid of gateway.workers.values()) expect(nodeFlagsOf(pid)).toEqual(['--single-threaded-gc', '--initial-old-space-size=64']);

    for (let i = 0; i < 6; i++) {
      const res = await fetch(`http://127.0.0.1:${gateway.port}/proxy?url=${encodeURIComponent(`${upstream.url}/echo`)}`, { headers: { connection: 'close' } });
      expect(res.status).toBe(200);
    }

    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toBe(0);
    for (const pid of gateway.workers.values()) expect(alive(pid)).toBe(false);
    expect(gateway.logLines.filter((l) => l.msg === 'shut down')).toHaveLength(2);
  });

  it('exits with code 1 instead of restarting workers forever when they cannot listen', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      gateway = await startGatewayProcess({ SERVER_PORT: String(port), REDIS_URL: redis.url, REDIS_PREFIX: `${redis.prefix}:taken`, CAPTURE_SPOOL_DIR: spoolDir });
      expect(await gateway.exited).toBe(1);
      expect(gateway.logLines.some((l) => l.msg === 'gateway worker exited before it listened; stopping the gateway')).toBe(true);
    } finally {
      taken.close();
    }
  });

  it("starts its workers with the gateway's own node flags after its defaults, so an operator's --no-single-threaded-gc wins", async () => {
    gateway = await startGatewayProcess({ REDIS_URL: redis.url, REDIS_PREFIX: `${redis.prefix}:flags`, CAPTURE_SPOOL_DIR: spoolDir }, ['--no-single-threaded-gc', '--max-semi-space-size=8']);
    await waitUntil(() => gateway!.workers.size === 2, 'two workers listening');
    // V8 takes the last of two contradicting flags
    for (const pid of gateway.workers.values()) expect(nodeFlagsOf(pid)).toEqual(['--single-threaded-gc', '--initial-old-space-size=64', '--no-single-threaded-gc', '--max-semi-space-size=8']);
    const res = await fetch(`http://127.0.0.1:${gateway.port}/proxy?url=${encodeURIComponent(`${upstream.url}/echo`)}`, { headers: { connection: 'close' } });
    expect(res.status).toBe(200);
  });
});
