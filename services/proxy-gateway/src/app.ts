import { ApiRegistry, createServiceApp, finishApp, type Logger } from '@mockyard/service-kit';

export interface GatewayDeps {
  logger: Logger;
}

export function createApp(deps: GatewayDeps) {
  const api = new ApiRegistry({ title: 'Mockyard gateway', version: '0.1.0' });
  const app = createServiceApp({ service: 'proxy-gateway', logger: deps.logger, api });
  return finishApp(app);
}
