/** Most processes `auto` starts: past a few, memory grows faster than a loopback proxy's throughput. */
export const MAX_AUTO_WORKERS = 4;

/** The number of gateway processes for `proxy.workers` on a machine with `cpus` CPUs. */
export function resolveWorkerCount(setting: 'auto' | number, cpus: number): number {
  if (setting === 'auto') return Math.max(1, Math.min(MAX_AUTO_WORKERS, cpus));
  return setting;
}
