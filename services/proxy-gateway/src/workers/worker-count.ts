import { readFileSync } from 'node:fs';
import os from 'node:os';

/** Most processes `auto` starts: past a few, memory grows faster than a loopback proxy's throughput. */
export const MAX_AUTO_WORKERS = 4;

/** The number of gateway processes for `proxy.workers` on a machine with `cpus` CPUs. */
export function resolveWorkerCount(setting: 'auto' | number, cpus: number): number {
  if (setting === 'auto') return Math.max(1, Math.min(MAX_AUTO_WORKERS, cpus));
  return setting;
}

/**
 * CPUs this process may use: the CPUs it may run on, capped by a cgroup CPU quota (`docker run --cpus=1.5`,
 * compose `cpus:`, a Kubernetes CPU limit), which Node's `availableParallelism()` does not see: a container
 * limited to one CPU on a 16-core host must not start four workers that share it.
 */
export function availableCpus(readFile: (path: string) => string = (path) => readFileSync(path, 'utf8')): number {
  const cpus = os.availableParallelism();
  const quota = cgroupCpuQuota(readFile);
  return quota === undefined ? cpus : Math.max(1, Math.min(cpus, Math.ceil(quota)));
}

/** The cgroup CPU quota in CPUs (v2 `cpu.max`, else v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us`); undefined when unlimited or unknown. */
export function cgroupCpuQuota(readFile: (path: string) => string): number | undefined {
  const v2 = tryRead(readFile, '/sys/fs/cgroup/cpu.max');
  if (v2 !== undefined) {
    const [quota, period] = v2.trim().split(/\s+/);
    return toCpus(quota, period ?? '100000');
  }
  const quota = tryRead(readFile, '/sys/fs/cgroup/cpu/cpu.cfs_quota_us');
  const period = tryRead(readFile, '/sys/fs/cgroup/cpu/cpu.cfs_period_us');
  return quota === undefined || period === undefined ? undefined : toCpus(quota.trim(), period.trim());
}

function toCpus(quota: string | undefined, period: string): number | undefined {
  const q = Number(quota);
  const p = Number(period);
  // "max" (v2) or -1 (v1): no quota
  return Number.isFinite(q) && q > 0 && Number.isFinite(p) && p > 0 ? q / p : undefined;
}

function tryRead(readFile: (path: string) => string, path: string): string | undefined {
  try {
    return readFile(path);
  } catch {
    return undefined;
  }
}
