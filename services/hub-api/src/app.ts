import type { DbHandle } from '@mockyard/db';
import { ApiRegistry, createServiceApp, finishApp, type Logger } from '@mockyard/service-kit';

export interface HubDeps {
  logger: Logger;
  db: DbHandle;
}

export function createApp(deps: HubDeps) {
  const api = new ApiRegistry({ title: 'Mockyard hub', version: '0.1.0' });
  const app = createServiceApp({ service: 'hub-api', logger: deps.logger, api, readiness: { database: () => deps.db.ping() } });
  return finishApp(app);
}
