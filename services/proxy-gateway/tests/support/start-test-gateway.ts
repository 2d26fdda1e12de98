import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@mockyard/service-kit';
import { loadGatewayConfig } from '../../src/config';
import { startGateway, type RunningGateway } from '../../src/start-gateway';

/** The gateway in-process on free ports with its own spool folder; `env` overrides config keys. */
export async function startTestGateway(env: Record<string, string>): Promise<RunningGateway & { spoolDir: string; stop(): Promise<void> }> {
  const spoolDir = mkdtempSync(join(tmpdir(), 'gateway-spool-'));
  const config = loadGatewayConfig({
    env: { SERVER_PORT: '0', SERVICE_PROXY_PORT: '0', CAPTURE_SPOOL_DIR: spoolDir, LOG_LEVEL: 'OFF', ...env },
    propertiesPath: undefined,
  });
  const gateway = await startGateway(config, createLogger({ service: 'proxy-gateway', level: config.logLevel }));
  return Object.assign(gateway, {
    spoolDir,
    stop: async () => {
      await gateway.close(500);
      rmSync(spoolDir, { recursive: true, force: true });
    },
  });
}
