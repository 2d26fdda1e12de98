import { Router, type Response } from 'express';
import { z } from 'zod';
import type { ApiRegistry } from '@mockyard/service-kit';
import { aggregateHealth, httpStatusOf, type HealthComponent } from '../domain/aggregate-health';
import type { HubContext } from '../hub-context';

const tags = ['health'];
const HealthSchema = z.object({ status: z.enum(['UP', 'DOWN', 'UNKNOWN']), components: z.record(z.string(), z.object({ status: z.string(), details: z.record(z.string(), z.unknown()).optional() })).optional() });
const SPRING_JSON = 'application/vnd.spring-boot.actuator.v3+json';

/**
 * Spring Boot Actuator-style health, open without an API key:
 * - /actuator/health: db, redis and the active engine (`engine`); DOWN (503) when any is DOWN.
 * - /actuator/health/liveness: the process answers (never depends on anything remote).
 * - /actuator/health/readiness: db and redis only: a down engine never takes the hub out of rotation.
 * - /actuator/health/{db|redis|engine}: one component.
 */
export function actuatorRoutes(hub: HubContext, api: ApiRegistry): Router {
  const r = Router();
  const send = (res: Response, body: { status: ReturnType<typeof aggregateHealth>; [k: string]: unknown } | HealthComponent) => {
    res.status(httpStatusOf(body.status)).type(SPRING_JSON).send(JSON.stringify(body));
  };

  const checkDependency = async (check: () => Promise<unknown>, details: Record<string, unknown>): Promise<HealthComponent> => {
    try {
      await withTimeout(check(), hub.healthTimeoutMs);
      return { status: 'UP', details };
    } catch (err) {
      return { status: 'DOWN', details: { ...details, error: (err as Error).message } };
    }
  };
  const dependencies = async () => ({
    db: await checkDependency(hub.checks.database, { database: 'PostgreSQL' }),
    ...(hub.checks.redis ? { redis: await checkDependency(hub.checks.redis, {}) } : {}),
  });
  const engine = async (): Promise<HealthComponent> => {
    const active = await hub.registry.resolve({ kind: 'active' });
    const probe = await hub.admin.probe(active, hub.healthTimeoutMs);
    await hub.registry.recordProbe(active, probe).catch((err: Error) => hub.logger.warn({ err }, 'could not store the active engine\'s health'));
    const details = { id: active.id, name: active.name, url: active.url, stubCount: probe.stubCount, responseTimeMs: probe.responseTimeMs, ...(probe.error ? { error: probe.error } : {}) };
    return { status: probe.isUp ? 'UP' : 'DOWN', details };
  };

  api.add({ method: 'get', path: '/actuator/health', tags, summary: 'Hub health with db, redis and the active engine (component "engine")', responses: { 200: { description: 'UP', schema: HealthSchema, contentType: SPRING_JSON }, 503: { description: 'a component is DOWN', schema: HealthSchema, contentType: SPRING_JSON } } });
  r.get('/health', async (_req, res) => {
    const [deps, eng] = await Promise.all([dependencies(), engine().catch((err: Error): HealthComponent => ({ status: 'DOWN', details: { error: err.message } }))]);
    const components = { ...deps, engine: eng, livenessState: { status: 'UP' as const }, readinessState: { status: aggregateHealth(deps) } };
    send(res, { status: aggregateHealth(components), components, groups: ['liveness', 'readiness'] });
  });

  api.add({ method: 'get', path: '/actuator/health/liveness', tags, summary: 'Liveness group: UP while the process serves requests', responses: { 200: { description: 'UP', schema: HealthSchema, contentType: SPRING_JSON } } });
  r.get('/health/liveness', (_req, res) => {
    send(res, { status: 'UP' });
  });

  api.add({ method: 'get', path: '/actuator/health/readiness', tags, summary: 'Readiness group: db and redis (not engines)', responses: { 200: { description: 'ready', schema: HealthSchema, contentType: SPRING_JSON }, 503: { description: 'not ready', schema: HealthSchema, contentType: SPRING_JSON } } });
  r.get('/health/readiness', async (_req, res) => {
    const components = await dependencies();
    send(res, { status: aggregateHealth(components), components });
  });

  api.add({ method: 'get', path: '/actuator/health/:component', tags, params: z.object({ component: z.enum(['db', 'redis', 'engine']) }), summary: 'One health component', responses: { 200: { description: 'UP', schema: HealthSchema }, 404: { description: 'no such component' }, 503: { description: 'DOWN', schema: HealthSchema } } });
  r.get('/health/:component', async (req, res, next) => {
    const name = String(req.params.component);
    if (name === 'engine') return send(res, await engine());
    const deps: Record<string, HealthComponent> = await dependencies();
    const component = deps[name];
    if (!component) return next();
    send(res, component);
  });
  return r;
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    }),
  ]).finally(() => clearTimeout(timer));
}
