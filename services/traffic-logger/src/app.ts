import type { DbHandle } from '@mockyard/db';
import { ApiRegistry, createServiceApp, finishApp, type Logger } from '@mockyard/service-kit';

export interface LoggerDeps {
  logger: Logger;
  db: DbHandle;
}

export function createApp(deps: LoggerDeps) {
  const api = new ApiRegistry({ title: 'Mockyard traffic log', version: '0.1.0' });
  const app = createServiceApp({ service: 'traffic-logger', logger: deps.logger, api, readiness: { database: () => deps.db.ping() } });
  return finishApp(app);
}
