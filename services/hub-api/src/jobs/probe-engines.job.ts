import type { Logger } from '@mockyard/service-kit';
import type { EngineAdmin } from '../domain/engine-admin';
import type { Registry } from '../domain/registry';

/** Probes every engine (local + registered) in parallel and records the outcome in the registry. */
export async function probeEngines(deps: { registry: Registry; admin: EngineAdmin; timeoutMs: number; logger: Logger }): Promise<{ probed: number; up: number }> {
  const engines = await deps.registry.listEngines();
  const results = await Promise.all(
    engines.map(async (engine) => {
      const probe = await deps.admin.probe(engine, deps.timeoutMs);
      await deps.registry.recordProbe(engine, probe);
      if (!probe.isUp) deps.logger.debug({ engineId: engine.id, engineUrl: engine.url, error: probe.error }, 'engine probe failed');
      return probe.isUp;
    }),
  );
  return { probed: engines.length, up: results.filter(Boolean).length };
}
