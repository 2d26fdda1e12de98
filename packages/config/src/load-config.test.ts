import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError, loadConfig, configSchemas } from './load-config';
import { commonFields, datasourceField } from './common-fields';

const fields = {
  port: { keys: ['server.port'], env: ['SERVER_PORT'], schema: configSchemas.port, default: 8080, doc: 'port' },
  proxyPort: { keys: ['service.proxy.port'], schema: configSchemas.port, default: 8888, doc: 'proxy port' },
  logLevel: commonFields.logLevel,
  datasource: datasourceField,
  name: { keys: ['engine.name'], schema: z.string(), default: 'local', doc: 'name' },
};

function withProperties(text: string) {
  const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
  writeFileSync(join(dir, 'app.properties'), text);
  return join(dir, 'app.properties');
}

describe('loadConfig precedence (default < properties file < environment)', () => {
  it.each([
    ['server.port', 'SERVER_PORT', 'port', '8080', 8080, '9001', 9001, '9002', 9002],
    ['service.proxy.port', 'SERVICE_PROXY_PORT', 'proxyPort', '8888', 8888, '7001', 7001, '7002', 7002],
    ['logging.level.mockyard', 'LOG_LEVEL', 'logLevel', 'INFO', 'info', 'DEBUG', 'debug', 'WARN', 'warn'],
  ] as const)('%s: default, then file, then %s', (key, envName, field, _d, expectDefault, fileValue, expectFile, envValue, expectEnv) => {
    const none = loadConfig(fields, { env: {}, cwd: mkdtempSync(join(tmpdir(), 'cfg-')) });
    expect(none[field]).toEqual(expectDefault);
    const path = withProperties(`${key}=${fileValue}\n`);
    expect(loadConfig(fields, { env: {}, propertiesPath: path })[field]).toEqual(expectFile);
    expect(loadConfig(fields, { env: { [envName]: envValue }, propertiesPath: path })[field]).toEqual(expectEnv);
  });

  it('reads config/application-local.properties from the working directory by default', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    require('node:fs').mkdirSync(join(dir, 'config'));
    writeFileSync(join(dir, 'config', 'application-local.properties'), 'server.port: 8181\n');
    expect(loadConfig(fields, { env: {}, cwd: dir }).port).toBe(8181);
  });

  it('accepts the relaxed environment name of any key (engine.name → ENGINE_NAME)', () => {
    expect(loadConfig(fields, { env: { ENGINE_NAME: 'edge' }, cwd: tmpdir() }).name).toBe('edge');
  });

  it('converts SPRING_DATASOURCE_URL from JDBC form and lets it win over the properties file', () => {
    const path = withProperties('spring.datasource.url=postgresql://file@h/db\n');
    const cfg = loadConfig(fields, { env: { SPRING_DATASOURCE_URL: 'jdbc:postgresql://db.local:5433/app?user=u&password=p%40ss&ssl=true' }, propertiesPath: path });
    expect(cfg.datasource).toEqual({ kind: 'postgres', url: 'postgresql://u:p%40ss@db.local:5433/app?sslmode=require' });
    expect(loadConfig(fields, { env: {}, propertiesPath: path }).datasource).toEqual({ kind: 'postgres', url: 'postgresql://file@h/db' });
  });

  it('carries the connect timeout: pgjdbc\'s connectTimeout becomes libpq\'s connect_timeout, which must be whole seconds', () => {
    const load = (url: string) => loadConfig(fields, { env: { SPRING_DATASOURCE_URL: url }, cwd: tmpdir() }).datasource;
    expect(load('jdbc:postgresql://h/db?user=u&connectTimeout=3')).toEqual({ kind: 'postgres', url: 'postgresql://u@h/db?connect_timeout=3' });
    expect(load('postgresql://h/db?connect_timeout=0')).toEqual({ kind: 'postgres', url: 'postgresql://h/db?connect_timeout=0' });
    expect(() => load('postgresql://h/db?connect_timeout=5s')).toThrow(/spring\.datasource\.url.*connect_timeout=5s.*whole number of seconds/);
    expect(() => load('jdbc:postgresql://h/db?connectTimeout=1.5')).toThrow(/connect_timeout=1\.5/);
  });

  it.each(['jdbc:h2:mem:testdb', 'jdbc:h2:mem:testdb;DB_CLOSE_DELAY=-1', 'memory://', 'memory://x'])('selects the embedded database for %s', (url) => {
    expect(loadConfig(fields, { env: { SPRING_DATASOURCE_URL: url }, cwd: tmpdir() }).datasource.kind).toBe('memory');
  });

  it('fails with a message naming the key, where it came from and the expected form', () => {
    expect(() => loadConfig(fields, { env: { SERVER_PORT: 'eighty' }, cwd: tmpdir() })).toThrow(ConfigError);
    expect(() => loadConfig(fields, { env: { SERVER_PORT: 'eighty' }, cwd: tmpdir() })).toThrow(/server\.port \(environment SERVER_PORT\) = "eighty".*number/);
    expect(() => loadConfig(fields, { env: { SERVER_PORT: '70000' }, cwd: tmpdir() })).toThrow(/0-65535/);
    expect(() => loadConfig(fields, { env: { LOG_LEVEL: 'LOUD' }, cwd: tmpdir() })).toThrow(/TRACE, DEBUG, INFO/);
  });

  it('never prints a secret value in its error', () => {
    const secret = 'jdbc:mysql://u:hunter2@h/db';
    let message = '';
    try {
      loadConfig(fields, { env: { SPRING_DATASOURCE_URL: secret }, cwd: tmpdir() });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/spring\.datasource\.url/);
    expect(message).toMatch(/jdbc:postgresql:\/\//);
    expect(message).not.toContain('hunter2');
  });

  it('fails when an explicitly named properties file is missing', () => {
    expect(() => loadConfig(fields, { env: { MOCKYARD_CONFIG_FILE: '/nonexistent/x.properties' } })).toThrow(/does not exist/);
  });
});

describe('configSchemas.apiKey', () => {
  const fields = { apiKey: { keys: ['x.security.api-key'], env: ['X_API_KEY'], schema: configSchemas.apiKey, secret: true, doc: 'key' } };
  const load = (env: Record<string, string>) => loadConfig(fields, { env, propertiesPath: undefined });

  it('takes the key without the whitespace no HTTP header keeps (a secret file\'s trailing newline)', () => {
    expect(load({ X_API_KEY: ' s3cret\n' }).apiKey).toBe('s3cret');
  });

  it('is no key when unset, and refuses a blank one, naming the setting and never the value', () => {
    expect(load({}).apiKey).toBeUndefined();
    expect(() => load({ X_API_KEY: ' \n' })).toThrow(/x\.security\.api-key.*must not be blank/s);
  });
});
