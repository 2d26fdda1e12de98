// Checks docker-compose.yml and the Dockerfiles against the code: build contexts exist, container
// ports match each service's configured default, every environment variable Compose sets is one the
// service reads, every long-running service has a health check and waits for healthy dependencies.
// Docker itself is not needed: this reads the files.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { envNamesOf, type ConfigFields } from '@mockyard/config';
import { engineConfigFields } from '../services/engine/src/config';
import { gatewayConfigFields } from '../services/proxy-gateway/src/config';
import { hubConfigFields } from '../services/hub-api/src/config';
import { loggerConfigFields } from '../services/traffic-logger/src/config';

const root = join(__dirname, '..');
type ComposeService = {
  image?: string;
  build?: { context: string; dockerfile: string };
  ports?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  command?: string[];
  restart?: string;
};
const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
};

/** Every environment variable a folder's source reads literally (process.env.X / env.X / env['X']). */
function envReadIn(dir: string): Set<string> {
  const names = new Set<string>();
  const walk = (d: string) => {
    for (const entry of readdirSync(d)) {
      if (['node_modules', 'dist', '.next', 'tests'].includes(entry)) continue;
      const p = join(d, entry);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ts|tsx|js|mjs)$/.test(entry) && !/\.test\.ts$/.test(entry)) {
        for (const m of readFileSync(p, 'utf8').matchAll(/\b(?:process\.)?env(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g)) names.add(m[1] ?? m[2]);
      }
    }
  };
  if (existsSync(dir)) walk(dir);
  return names;
}

function configEnv(fields: ConfigFields): Set<string> {
  return new Set(Object.values(fields).flatMap((f) => envNamesOf(f)));
}

const shared = new Set(['NODE_ENV', 'MOCKYARD_CONFIG_FILE']);
const codeOf: Record<string, { dir: string; fields?: ConfigFields; portKey?: string; extraEnv?: string[] }> = {
  engine: { dir: 'services/engine', fields: engineConfigFields, portKey: 'port' },
  'engine-extra': { dir: 'services/engine', fields: engineConfigFields, portKey: 'port' },
  'traffic-logger': { dir: 'services/traffic-logger', fields: loggerConfigFields, portKey: 'port' },
  'hub-api': { dir: 'services/hub-api', fields: hubConfigFields, portKey: 'port' },
  'proxy-gateway': { dir: 'services/proxy-gateway', fields: gatewayConfigFields, portKey: 'port' },
  migrate: { dir: 'packages/db', extraEnv: ['DATABASE_URL', 'SPRING_DATASOURCE_URL'] },
  // Next.js's standalone server reads PORT and HOSTNAME itself.
  web: { dir: 'web', extraEnv: ['PORT', 'HOSTNAME'] },
};
const built = Object.entries(compose.services).filter(([, s]) => s.build);

describe('docker-compose.yml and Dockerfiles match the code', () => {
  it('builds every Mockyard service from an existing context and Dockerfile', () => {
    expect(built.map(([n]) => n).sort()).toEqual(Object.keys(codeOf).sort());
    for (const [, svc] of built) {
      expect(existsSync(join(root, svc.build!.context))).toBe(true);
      expect(existsSync(join(root, svc.build!.context, svc.build!.dockerfile))).toBe(true);
    }
  });

  it.each(built)('%s: every environment variable Compose sets is one the service reads', (name, svc) => {
    const code = codeOf[name];
    const read = new Set([...shared, ...(code.extraEnv ?? []), ...(code.fields ? configEnv(code.fields) : []), ...envReadIn(join(root, code.dir))]);
    for (const key of Object.keys(svc.environment ?? {})) {
      expect({ service: name, env: key, read: read.has(key) }).toEqual({ service: name, env: key, read: true });
    }
  });

  it.each([
    ['engine', '9090:9090', engineConfigFields.port.default],
    ['proxy-gateway', '8080:8080', gatewayConfigFields.port.default],
    ['proxy-gateway', '8888:8888', gatewayConfigFields.proxyPort.default],
  ] as const)('%s publishes %s, the configured default', (name, mapping, defaultPort) => {
    const ports = compose.services[name].ports ?? [];
    expect(ports).toContain(mapping);
    expect(Number(mapping.split(':')[1])).toBe(defaultPort);
  });

  it('publishes no host port for internal services', () => {
    for (const name of ['traffic-logger', 'hub-api', 'web', 'engine-extra', 'postgres', 'redis']) {
      expect({ name, ports: compose.services[name].ports }).toEqual({ name, ports: undefined });
    }
  });

  it.each(built.filter(([n]) => codeOf[n].portKey))('%s: the port it is told to use, its Dockerfile EXPOSE and its health check agree with its config default', (name, svc) => {
    const fields = codeOf[name].fields!;
    const portField = fields[codeOf[name].portKey!];
    const defaultPort = Number(portField.default);
    const envPort = Object.entries(svc.environment ?? {}).find(([k]) => envNamesOf(portField).includes(k))?.[1];
    expect(Number(envPort ?? defaultPort)).toBe(defaultPort);
    const dockerfile = readFileSync(join(root, svc.build!.context, svc.build!.dockerfile), 'utf8');
    expect(dockerfile).toMatch(new RegExp(`^EXPOSE .*\\b${defaultPort}\\b`, 'm'));
    // The engine reserves no path outside /__admin (any other path may be a user's stub).
    const healthPath = name.startsWith('engine') ? '/__admin/health' : '/health/';
    expect(svc.healthcheck?.test.join(' ')).toContain(`127.0.0.1:${defaultPort}${healthPath}`);
    expect(dockerfile).toMatch(new RegExp(`HEALTHCHECK .*127\\.0\\.0\\.1:${defaultPort}${healthPath.replace(/\//g, '\\/')}`));
  });

  it('gives every long-running service a health check and makes dependants wait for it', () => {
    for (const [name, svc] of Object.entries(compose.services)) {
      if (name === 'migrate') {
        expect(svc.restart).toBe('no');
        continue;
      }
      expect({ name, healthcheck: Boolean(svc.healthcheck) }).toEqual({ name, healthcheck: true });
      for (const [dep, { condition }] of Object.entries(svc.depends_on ?? {})) {
        expect(compose.services[dep]).toBeDefined();
        expect(condition).toBe(dep === 'migrate' ? 'service_completed_successfully' : 'service_healthy');
      }
    }
  });

  it('runs migrations with the committed migrate command before the database users start', () => {
    const migrate = compose.services.migrate;
    expect(existsSync(join(root, 'packages/db/src/migrate-cli.ts'))).toBe(true);
    expect(migrate.command).toEqual(['node', 'packages/db/dist/migrate-cli.js']);
    for (const name of ['traffic-logger', 'hub-api']) expect(compose.services[name].depends_on?.migrate?.condition).toBe('service_completed_successfully');
  });

  it('points every service-to-service URL at a Compose service and its configured port', () => {
    const portOf: Record<string, number> = {
      engine: engineConfigFields.port.default,
      'traffic-logger': loggerConfigFields.port.default,
      'hub-api': hubConfigFields.port.default,
      'proxy-gateway': gatewayConfigFields.port.default,
      web: 3000,
      redis: 6379,
      postgres: 5432,
    };
    for (const [name, svc] of Object.entries(compose.services)) {
      for (const [key, value] of Object.entries(svc.environment ?? {})) {
        const m = /^(?:https?|redis|postgresql):\/\/(?:[^@/]+@)?([a-z-]+):(\d+)/.exec(String(value));
        if (!m) continue;
        expect({ name, key, host: m[1], port: Number(m[2]) }).toEqual({ name, key, host: m[1], port: portOf[m[1]] });
      }
    }
  });

  it('runs every image as a non-root user on a supported Node LTS, production dependencies only', () => {
    for (const [, svc] of built) {
      const dockerfile = readFileSync(join(root, svc.build!.context, svc.build!.dockerfile), 'utf8');
      expect(dockerfile).toMatch(/^USER node$/m);
      expect(dockerfile).toMatch(/^FROM node:(22|24)-/m);
      expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2);
    }
  });
});
