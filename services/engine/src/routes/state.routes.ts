import type { DelayDistribution } from '@mockyard/matching';
import { AdminError } from '../domain/admin-error';
import type { MockEngine } from '../domain/mock-engine';
import { addAdminRoute, readJson, type AdminRouteContext } from './admin-route';

function parseDistribution(value: unknown, path: string): DelayDistribution | undefined {
  if (value === undefined || value === null) return undefined;
  const d = value as Record<string, unknown>;
  const num = (k: string) => typeof d[k] === 'number' && (d[k] as number) >= 0;
  if (d.type === 'lognormal' && num('median') && num('sigma')) return d as unknown as DelayDistribution;
  if (d.type === 'uniform' && num('lower') && num('upper') && (d.upper as number) >= (d.lower as number)) return d as unknown as DelayDistribution;
  if (d.type === 'fixed' && num('milliseconds')) return d as unknown as DelayDistribution;
  throw AdminError.invalidEntity([{ path, message: 'delayDistribution must be {type:"lognormal",median,sigma}, {type:"uniform",lower,upper} or {type:"fixed",milliseconds}' }]);
}

/** Scenarios and global settings. */
export function registerStateRoutes(ctx: AdminRouteContext, engine: MockEngine) {
  addAdminRoute(ctx, 'get', '/scenarios', 'List scenarios with their state and possible states', () => ({ scenarios: engine.scenarios.list(engine.allStubs()) }));
  addAdminRoute(ctx, 'post', '/scenarios/reset', 'Reset every scenario to Started', () => void engine.scenarios.reset());
  addAdminRoute(ctx, 'put', '/scenarios/:name/state', 'Set one scenario\'s state (empty body: reset it)', (req) => {
    const name = String(req.params.name);
    const scenario = engine.scenarios.list(engine.allStubs()).find((s) => s.name === name);
    if (!scenario) throw AdminError.notFound(`Scenario ${name} does not exist`);
    const body = readJson(req) as { state?: unknown } | undefined;
    if (body?.state === undefined) return void engine.scenarios.reset(name);
    if (typeof body.state !== 'string' || !scenario.possibleStates.includes(body.state)) {
      throw AdminError.badRequest(`State "${String(body.state)}" is not a valid state for scenario ${name}; possible: ${scenario.possibleStates.join(', ')}`);
    }
    engine.scenarios.set(name, body.state);
  });

  addAdminRoute(ctx, 'get', '/settings', 'Global settings (fixed delay, delay distribution)', () => ({ settings: engine.settings }));
  const update = (req: Parameters<Parameters<typeof addAdminRoute>[4]>[0]) => {
    const raw = readJson(req) as Record<string, unknown> | undefined;
    const body = (raw && typeof raw.settings === 'object' ? raw.settings : raw) as Record<string, unknown> | undefined;
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw AdminError.invalidEntity([{ path: '/', message: 'expected a settings object' }]);
    const fixedDelay = body.fixedDelay;
    if (fixedDelay !== undefined && fixedDelay !== null && !(typeof fixedDelay === 'number' && Number.isInteger(fixedDelay) && fixedDelay >= 0)) {
      throw AdminError.invalidEntity([{ path: '/fixedDelay', message: 'fixedDelay must be a non-negative integer (milliseconds)' }]);
    }
    const delayDistribution = parseDistribution(body.delayDistribution, '/delayDistribution');
    engine.settings = {
      fixedDelay: (fixedDelay as number | null | undefined) ?? undefined,
      delayDistribution,
      proxyPassThrough: typeof body.proxyPassThrough === 'boolean' ? body.proxyPassThrough : engine.settings.proxyPassThrough,
      extended: (body.extended as Record<string, unknown>) ?? engine.settings.extended,
    };
  };
  addAdminRoute(ctx, 'post', '/settings', 'Replace global settings', update);
  addAdminRoute(ctx, 'put', '/settings', 'Replace global settings', update);
  addAdminRoute(ctx, 'patch', '/settings/extended', 'Merge extended settings', (req) => {
    const body = readJson(req);
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw AdminError.invalidEntity([{ path: '/', message: 'expected an object' }]);
    engine.settings = { ...engine.settings, extended: { ...engine.settings.extended, ...(body as Record<string, unknown>) } };
  });
}
