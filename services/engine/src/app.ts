import { ApiRegistry, createServiceApp, finishApp, type Logger } from '@mockyard/service-kit';

export interface EngineDeps {
  logger: Logger;
}

export function createApp(deps: EngineDeps) {
  const api = new ApiRegistry({ title: 'Mockyard engine', version: '0.1.0' });
  const app = createServiceApp({ service: 'engine', logger: deps.logger, api });
  return finishApp(app);
}
