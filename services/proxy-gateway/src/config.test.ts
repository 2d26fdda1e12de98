import { ConfigError } from '@mockyard/config';
import { loadGatewayConfig } from './config';

const load = (env: Record<string, string> = {}) => loadGatewayConfig({ env, propertiesPath: undefined, cwd: '/nonexistent-config-dir' });

describe('loadGatewayConfig', () => {
  it('has the documented defaults', () => {
    expect(load()).toMatchObject({
      port: 8080,
      proxyPort: 8888,
      proxyTimeoutMs: 30000,
      proxyIdleTimeoutMs: 45000,
      proxyTrustForwardedFor: false,
      captureEnabled: true,
      captureMaxBodyBytes: 262144,
      captureRedactHeaders: ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-hub-api-key', 'x-api-key'],
      captureSpoolDir: 'data/spool',
      loggerUrl: 'http://127.0.0.1:8081',
      outboundAllow: [],
      outboundDeny: [],
      outboundAllowLinkLocal: false,
      workers: 'auto',
    });
  });

  it.each([
    [{ SERVER_PORT: '9000' }, { port: 9000 }],
    [{ SERVICE_PROXY_PORT: '0' }, { proxyPort: 0 }],
    [{ PROXY_TIMEOUT_MS: '1500' }, { proxyTimeoutMs: 1500 }],
    [{ PROXY_IDLE_TIMEOUT_MS: '0' }, { proxyIdleTimeoutMs: 0 }],
    [{ CAPTURE_ENABLED: 'off' }, { captureEnabled: false }],
    [{ CAPTURE_REDACT_HEADERS: 'X-Api-Key, authorization' }, { captureRedactHeaders: ['X-Api-Key', 'authorization'] }],
    [{ CAPTURE_REDACT_HEADERS: '' }, { captureRedactHeaders: [] }],
    [{ CAPTURE_MAX_BODY_BYTES: '0' }, { captureMaxBodyBytes: 0 }],
    [{ CAPTURE_SPOOL_MAX_BYTES: '1024' }, { captureSpoolMaxBytes: 1024 }],
    [{ PROXY_WORKERS: '3' }, { workers: 3 }],
    [{ PROXY_WORKERS: ' AUTO ' }, { workers: 'auto' }],
  ])('reads %j', (env, expected) => {
    expect(load(env)).toMatchObject(expected);
  });

  it.each([[{ PROXY_TIMEOUT_MS: '0' }], [{ SERVICE_PROXY_PORT: 'x' }], [{ CAPTURE_ENABLED: 'maybe' }], [{ CAPTURE_SPOOL_MAX_BYTES: '-1' }], [{ PROXY_WORKERS: '0' }], [{ PROXY_WORKERS: 'many' }], [{ PROXY_WORKERS: '1.5' }]])('rejects %j', (env) => {
    expect(() => load(env)).toThrow(ConfigError);
  });
});
