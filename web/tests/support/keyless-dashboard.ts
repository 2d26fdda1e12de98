import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '@mockyard/testkit';

/**
 * The built dashboard as a process of its own whose environment holds neither HUB_API_KEY nor
 * TRAFFIC_API_KEY, against `gatewayUrl`: the setup in which users type a key into the prompt.
 */
export async function startKeylessDashboard(gatewayUrl: string): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const { HUB_API_KEY: _hub, TRAFFIC_API_KEY: _traffic, ...env } = process.env;
  const child = spawn(process.execPath, [join(__dirname, '..', '..', '.next', 'standalone', 'web', 'server.js')], {
    env: { ...env, PORT: String(port), HOSTNAME: '127.0.0.1', GATEWAY_URL: gatewayUrl, NEXT_TELEMETRY_DISABLED: '1' },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      if ((await fetch(`${url}/bff/session`)).ok) return { url, stop };
    } catch {
      if (attempt > 100) {
        await stop();
        throw new Error('the keyless dashboard did not start');
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
