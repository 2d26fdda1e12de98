import { bindAddressField, commonFields, configSchemas, loadConfig, redisField, redisPrefixField, type LoadConfigOptions } from '@mockyard/config';

export const gatewayConfigFields = {
  ...commonFields,
  port: { keys: ['server.port'], env: ['SERVER_PORT'], schema: configSchemas.port, default: 8080, doc: 'public HTTP port: /proxy, /api, /hub, /actuator, /mcp and the dashboard' },
  proxyPort: { keys: ['service.proxy.port'], env: ['SERVICE_PROXY_PORT'], schema: configSchemas.port, default: 8888, doc: 'forward-proxy port for HTTP_PROXY clients and CONNECT tunnels' },
  bindAddress: bindAddressField,
  redisUrl: redisField,
  redisPrefix: redisPrefixField,
  loggerUrl: { keys: ['gateway.logger-url'], env: ['LOGGER_URL'], schema: configSchemas.httpUrl, default: 'http://127.0.0.1:8081', doc: 'traffic-logger base URL (/api/*)' },
  hubUrl: { keys: ['gateway.hub-url'], env: ['HUB_API_URL'], schema: configSchemas.httpUrl, default: 'http://127.0.0.1:8082', doc: 'hub-api base URL (/hub/*, /actuator/*, /mcp)' },
  webUrl: { keys: ['gateway.web-url'], env: ['WEB_URL'], schema: configSchemas.httpUrl, default: 'http://127.0.0.1:3000', doc: 'dashboard base URL (everything else)' },
};

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;
export function loadGatewayConfig(options: LoadConfigOptions = {}) {
  return loadConfig(gatewayConfigFields, options);
}
