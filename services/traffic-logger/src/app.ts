import type { TrafficConsumerStats } from '@mockyard/bus';
import { ApiRegistry, createServiceApp, finishApp, requireApiKey, type Logger, type ReadinessCheck } from '@mockyard/service-kit';
import type { ExchangeRepo } from './adapters/exchange.repo';
import type { LiveFeeds } from './live/live-feeds';
import { createExchangesRoutes } from './routes/exchanges.routes';
import { createRequestsRoutes } from './routes/requests.routes';
import { createStreamRoutes } from './routes/stream.routes';

export interface LoggerAppDeps {
  logger: Logger;
  repo: ExchangeRepo;
  feeds: LiveFeeds;
  readiness: { database: ReadinessCheck; redis: ReadinessCheck };
  /** The consumers' counters summed, reported in /health/ready as `consumer`. */
  consumerStats?: () => TrafficConsumerStats;
  count: { exactLimit: number; timeoutMs: number };
  /** `server.allowed-hosts`: names besides IP addresses and localhost a request's Host may give. */
  allowedHosts?: readonly string[];
  /** When set, /api/* requires it (X-Api-Key or Authorization: Bearer); health and OpenAPI stay open. */
  apiKey?: string;
}

/** The read API (reached through the gateway at /api/*), the live feed, health and OpenAPI. */
export function createApp(deps: LoggerAppDeps) {
  const api = new ApiRegistry({
    title: 'Mockyard traffic log',
    version: '0.1.0',
    description: 'Logged requests and responses of the traffic proxy: paged, filtered, exported as HAR and followed live.',
  });
  const consumerStats = deps.consumerStats;
  const app = createServiceApp({
    service: 'traffic-logger',
    logger: deps.logger,
    api,
    readiness: deps.readiness,
    readinessDetails: consumerStats && (() => ({ consumer: consumerStats() })),
    allowedHosts: deps.allowedHosts,
  });
  const key = { header: 'X-Api-Key', setting: 'traffic.security.api-key' };
  api.keyProtected({ prefixes: ['/api'], ...key });
  app.use('/api', requireApiKey({ apiKey: deps.apiKey, ...key }));
  app.use(createRequestsRoutes({ repo: deps.repo, count: deps.count }, api));
  app.use(createExchangesRoutes({ repo: deps.repo }, api));
  app.use(createStreamRoutes({ feeds: deps.feeds }, api));
  return finishApp(app);
}
