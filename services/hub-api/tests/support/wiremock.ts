import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from '@mockyard/testkit';

export interface WireMockServer {
  url: string;
  port: number;
  httpsUrl?: string;
  stop(): Promise<void>;
  /** Starts it again on the same port(s) after stop(). */
  restart(): Promise<void>;
  /** Stops it for good and deletes its root dir. */
  remove(): Promise<void>;
}

/** The standalone jar shipped by the `wiremock` npm package, or null. */
export function findWireMockJar(): string | null {
  let dir = __dirname;
  for (let i = 0; i < 8; i++) {
    const build = join(dir, 'node_modules', 'wiremock', 'build');
    if (existsSync(build)) {
      const jar = readdirSync(build).find((f) => /^wiremock-standalone-.*\.jar$/.test(f));
      if (jar) return join(build, jar);
    }
    dir = dirname(dir);
  }
  return null;
}

/** Why genuine WireMock cannot run here, or null when it can (Java 11+ and the jar). */
export function wireMockUnavailableReason(): string | null {
  const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (java.error || java.status !== 0) return 'Java is not installed (apt-get install -y openjdk-17-jre-headless)';
  if (!findWireMockJar()) return 'the wiremock npm package (its standalone jar) is not installed';
  return null;
}

/** Starts a genuine WireMock on a free loopback port; resolves once its admin API answers. */
export async function startWireMock(options: { https?: boolean } = {}): Promise<WireMockServer> {
  const jar = findWireMockJar();
  if (!jar) throw new Error('wiremock jar not found');
  const port = await freePort();
  const httpsPort = options.https ? await freePort() : undefined;
  // its own root dir: persisted stubs (recordings) must not land in the repo or leak between servers
  const rootDir = mkdtempSync(join(tmpdir(), 'hub-wiremock-'));
  let child: ChildProcess | undefined;
  const launch = async () => {
    const args = ['-XX:TieredStopAtLevel=1', '-Xmx192m', '-jar', jar, '--port', String(port), '--bind-address', '127.0.0.1', '--disable-banner', '--root-dir', rootDir];
    if (httpsPort) args.push('--https-port', String(httpsPort));
    child = spawn('java', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (d) => (stderr += String(d)));
    const exited = new Promise<never>((_, reject) => child!.once('exit', (code) => reject(new Error(`wiremock exited with ${code}: ${stderr.slice(-500)}`))));
    await Promise.race([waitForHealth(`http://127.0.0.1:${port}`, 30000), exited]);
  };
  await launch();
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    httpsUrl: httpsPort ? `https://127.0.0.1:${httpsPort}` : undefined,
    stop: async () => {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const gone = new Promise((resolve) => c.once('exit', resolve));
      c.kill('SIGKILL');
      await gone;
    },
    remove: async () => {
      const c = child;
      if (c && c.exitCode === null && c.signalCode === null) {
        const gone = new Promise((resolve) => c.once('exit', resolve));
        c.kill('SIGKILL');
        await gone;
      }
      rmSync(rootDir, { recursive: true, force: true });
    },
    restart: launch,
  };
}

async function waitForHealth(url: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(`${url}/__admin/health`);
      if (res.ok) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`wiremock at ${url} did not start within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
