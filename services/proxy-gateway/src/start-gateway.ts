import http from 'node:http';
import type { Duplex } from 'node:stream';
import Redis from 'ioredis';
import { publisherRedisOptions, TrafficPublisher } from '@mockyard/bus';
import { startServer, type Logger } from '@mockyard/service-kit';
import { createApp } from './app';
import type { GatewayConfig } from './config';
import { createForwardProxyServer } from './forward-proxy/create-forward-proxy-server';
import { createForwarder } from './forwarding/create-forwarder';
import { SelfAddresses } from './forwarding/self-addresses';
import { isWebSocketUpgrade, serveWithoutUpgrade } from './routes/plain-upgrade';
import { createWorkerLink, type WorkerLink } from './workers/worker-link';
import { openWorkerSpool } from './workers/worker-spool';

export interface RunningGateway {
  url: string;
  port: number;
  proxyUrl: string;
  proxyPort: number;
  publisher: TrafficPublisher | undefined;
  /** Stops intake on both ports, drains, closes upstream pools, flushes events (to Redis or the spool). */
  close(graceMs?: number): Promise<void>;
}

/** Which worker of a multi-process gateway this is (see workers/run-primary.ts); absent in a single process. */
export interface WorkerIdentity {
  index: number;
  count: number;
}

/**
 * Wires the gateway from its config: the publisher (own Redis connection, spool), the forwarder, the
 * public app on `server.port` and the forward proxy on `service.proxy.port`. Port 0 picks free ports.
 */
export async function startGateway(config: GatewayConfig, logger: Logger, worker?: WorkerIdentity): Promise<RunningGateway> {
  const self = new SelfAddresses([config.bindAddress]);
  let redis: Redis | undefined;
  let publisher: TrafficPublisher | undefined;
  if (config.captureEnabled) {
    redis = new Redis(config.redisUrl, { ...publisherRedisOptions, connectionName: 'proxy-gateway-publisher' });
    redis.on('error', (err: Error) => logger.debug({ err: err.message }, 'traffic stream redis error'));
    await waitForReady(redis, 2000);
    publisher = new TrafficPublisher({
      redis,
      prefix: config.redisPrefix,
      spool: openWorkerSpool({ dir: config.captureSpoolDir, maxBytes: config.captureSpoolMaxBytes, index: worker?.index ?? 0, count: worker?.count ?? 1, logger }),
      logger,
      maxStreamLength: config.captureStreamMaxLength,
      maxStreamBytes: config.captureStreamMaxBytes,
      maxBufferedEvents: config.captureBufferEvents,
      maxBufferedBytes: config.captureBufferBytes,
    });
    publisher.start();
  }
  // In a worker, /health/ready reports the whole gateway: the primary sums every worker's counters.
  const link: WorkerLink | undefined = worker ? createWorkerLink(() => publisher?.counters(), worker.count) : undefined;
  const counters = publisher ? (link ? () => link.gatewayCounters() : () => publisher!.counters()) : undefined;
  const forwarder = createForwarder(
    {
      timeoutMs: config.proxyTimeoutMs,
      maxSockets: config.proxyMaxSockets,
      verifyTls: config.proxyVerifyTls,
      apiKey: config.proxyApiKey,
      captureEnabled: config.captureEnabled,
      maxBodyBytes: config.captureMaxBodyBytes,
      redactHeaders: config.captureRedactHeaders,
      outbound: { allow: config.outboundAllow, deny: config.outboundDeny, allowLinkLocal: config.outboundAllowLinkLocal },
    },
    publisher,
    logger,
  );
  const gateway = createApp({
    logger,
    forwarder: forwarder.options,
    self,
    trustForwardedFor: config.proxyTrustForwardedFor,
    targets: { loggerUrl: config.loggerUrl, hubUrl: config.hubUrl, webUrl: config.webUrl },
    health: { pingRedis: redis ? () => redis!.ping() : undefined, counters },
    allowedHosts: config.allowedHosts,
  });
  // Node checks the headers timeout every connectionsCheckingInterval (30 s by default, which let a
  // slow-header client hold a connection for up to 90 s); a quarter of the timeout bounds it at 1.25×.
  // requestTimeout 0: large bodies stream for as long as they take (and a headers timeout above Node's default
  // requestTimeout of 5 min would otherwise be refused).
  const serverOptions: http.ServerOptions = {
    requestTimeout: 0,
    headersTimeout: config.proxyHeadersTimeoutMs,
    connectionsCheckingInterval: Math.max(100, Math.floor(config.proxyHeadersTimeoutMs / 4)),
  };
  const publicServer = http.createServer(serverOptions, gateway.handler);
  // WebSocket handshakes go to the dashboard's and services' sockets; any other upgrade is served as the plain
  // request it also is (see serveWithoutUpgrade).
  publicServer.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    if (isWebSocketUpgrade(req)) gateway.upgrade(req, socket, head);
    else serveWithoutUpgrade(publicServer, req, socket, head);
  });
  const proxyServer = createForwardProxyServer({ forwarder: forwarder.options, self, trustForwardedFor: config.proxyTrustForwardedFor, logger, serverOptions });
  // A connection with no traffic either way is closed (0: never).
  for (const s of [publicServer, proxyServer]) s.timeout = config.proxyIdleTimeoutMs;
  const main = await startServer(publicServer, config.port, config.bindAddress);
  self.addGatewayPort(main.port);
  const forward = await startServer(proxyServer, config.proxyPort, config.bindAddress);
  self.addForwardProxyPort(forward.port);

  return {
    url: main.url,
    port: main.port,
    proxyUrl: forward.url,
    proxyPort: forward.port,
    publisher,
    close: async (graceMs = 5000) => {
      await Promise.all([main.close(graceMs), forward.close(graceMs)]);
      gateway.close();
      forwarder.close();
      link?.close();
      await publisher?.stop();
      if (redis?.status === 'ready') await redis.quit().catch(() => redis?.disconnect());
      else redis?.disconnect();
    },
  };
}

function waitForReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    redis.once('ready', done);
  });
}
