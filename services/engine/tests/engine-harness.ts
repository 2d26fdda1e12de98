import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createLogger, startServer, type StartedServer } from '@mockyard/service-kit';
import { createEngineApp, type EngineApp, type EngineDeps } from '../src/app';

export interface TestEngine extends Omit<EngineApp, 'stop'> {
  url: string;
  rootDir: string;
  server: StartedServer;
  /** Stops the server; the root dir is kept unless `removeRoot`. */
  stop(options?: { removeRoot?: boolean }): Promise<void>;
}

export const silentLogger = createLogger({ service: 'engine-test', level: 'silent' });

/** Starts a real engine on 127.0.0.1:0 with its own temporary root directory (or the given one). */
export async function startTestEngine(overrides: Partial<EngineDeps> = {}): Promise<TestEngine> {
  const rootDir = overrides.rootDir ?? (await mkdtemp(path.join(os.tmpdir(), 'mockyard-engine-')));
  const app = await createEngineApp({ logger: silentLogger, name: 'test-engine', publicUrl: 'http://127.0.0.1:0', rootDir, ...overrides });
  const server = await startServer(app.handler, 0, '127.0.0.1');
  return {
    ...app,
    url: server.url,
    rootDir,
    server,
    async stop(options = {}) {
      app.stop();
      await server.close(100);
      if (options.removeRoot) await rm(rootDir, { recursive: true, force: true });
    },
  };
}

export interface SimpleResponse {
  status: number;
  statusMessage?: string;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: () => any;
}

/** A plain HTTP call (fetch would hide status messages and raw bodies). */
export function call(baseUrl: string, method: string, pathAndQuery: string, body?: unknown, headers: Record<string, string> = {}): Promise<SimpleResponse> {
  const url = new URL(pathAndQuery, baseUrl);
  const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { ...(payload && typeof body !== 'string' && !Buffer.isBuffer(body) ? { 'content-type': 'application/json' } : {}), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, statusMessage: res.statusMessage, headers: res.headers, text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Starts a throwaway upstream HTTP server on port 0 that records what it receives. */
export async function startUpstream(handle: (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => void) {
  const received: { method: string; url: string; headers: http.IncomingHttpHeaders; body: Buffer }[] = [];
  const server = await startServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      handle(req, body, res);
    });
  }, 0, '127.0.0.1');
  return { url: server.url, received, close: () => server.close(100) };
}
