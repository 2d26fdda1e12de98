import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLogger, startServer, type StartedServer } from '@mockyard/service-kit';
// Tests only: the hub never imports the engine; its integration tests run the real engine in-process.
import { createEngineApp } from '../../../engine/src/app';

export interface MockyardEngine {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** Starts it again on the same port with the same root dir (stubs persisted there come back). */
  restart(): Promise<void>;
  remove(): Promise<void>;
}

/** Mockyard's own engine (services/engine) on 127.0.0.1, port 0 first, with its own root dir. */
export async function startMockyardEngine(options: { adminApiKey?: string } = {}): Promise<MockyardEngine> {
  const rootDir = await mkdtemp(path.join(os.tmpdir(), 'hub-test-engine-'));
  const logger = createLogger({ service: 'engine-under-hub-test', level: 'silent' });
  let port = 0;
  let server: StartedServer | undefined;
  const launch = async () => {
    const app = await createEngineApp({ logger, name: 'engine', publicUrl: `http://127.0.0.1:${port}`, rootDir, adminApiKey: options.adminApiKey });
    server = await startServer(app.handler, port, '127.0.0.1');
    port = server.port;
  };
  await launch();
  const stop = async () => {
    await server?.close(50);
    server = undefined;
  };
  return {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    stop,
    restart: launch,
    remove: async () => {
      await stop();
      await rm(rootDir, { recursive: true, force: true });
    },
  };
}
