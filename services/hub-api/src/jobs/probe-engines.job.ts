import type { Logger } from '@mockyard/service-kit';
import type { EngineAdmin } from '../domain/engine-admin';
import type { Registry } from '../domain/registry';

/**
 * Probes every engine (local + registered) in parallel and records each outcome in the registry. One
 * engine's failure to be recorded never stops the others (it is logged and retried next round).
 */
export async function probeEngines(deps: { registry: Registry; admin: EngineAdmin; timeoutMs: number; logger: Logger }): Promise<{ probed: number; up: number; unrecorded: number }> {
  const engines = await deps.registry.listEngines();
  const results = await Promise.all(
    engines.map(async (engine) => {
      const probe = await deps.admin.probe(engine, deps.timeoutMs);
      if (!probe.isUp) deps.logger.debug({ engineId: engine.id, engineUrl: engine.url, error: probe.error }, 'engine probe failed');
      try {
        await deps.registry.recordProbe(engine, probe);
        return probe.isUp ? 'up' : 'down';
      } catch (err) {
        deps.logger.warn({ err, engineId: engine.id }, 'engine probe result not recorded');
        return 'unrecorded';
      }
    }),
  );
  return { probed: engines.length, up: results.filter((r) => r === 'up').length, unrecorded: results.filter((r) => r === 'unrecorded').length };
}
