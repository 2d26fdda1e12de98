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

/**
 * The cgroup CPU quota in CPUs, the smallest on the way from this process's cgroup to the root (v2 `cpu.max`,
 * else v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us`); undefined when unlimited or unknown. A limit can sit on a
 * parent: systemd's `CPUQuota=` on a slice, or a container started with the host's cgroup namespace (inside
 * an ordinary container its own cgroup is the root it sees, and its limit is there). The process's cgroup
 * comes from /proc/self/cgroup; directories of it that are not mounted here (a container's view of a v1 host
 * path) are skipped, and the mount's root is always read.
 */
export function cgroupCpuQuota(readFile: (path: string) => string): number | undefined {
  const own = ownCgroups(tryRead(readFile, '/proc/self/cgroup') ?? '');
  const v2 = smallest(ancestors('/sys/fs/cgroup', own.v2), (dir) => {
    const content = tryRead(readFile, `${dir}/cpu.max`);
    if (content === undefined) return undefined;
    const [quota, period] = content.trim().split(/\s+/);
    return toCpus(quota, period ?? '100000') ?? Infinity;
  });
  if (v2 !== undefined) return Number.isFinite(v2) ? v2 : undefined;
  const v1 = smallest(
    ['/sys/fs/cgroup/cpu', '/sys/fs/cgroup/cpu,cpuacct'].flatMap((mount) => ancestors(mount, own.v1)),
    (dir) => {
      const quota = tryRead(readFile, `${dir}/cpu.cfs_quota_us`);
      const period = tryRead(readFile, `${dir}/cpu.cfs_period_us`);
      return quota === undefined || period === undefined ? undefined : (toCpus(quota.trim(), period.trim()) ?? Infinity);
    },
  );
  return v1 !== undefined && Number.isFinite(v1) ? v1 : undefined;
}

/** This process's cgroup paths from /proc/self/cgroup: the v2 one (`0::/path`) and the v1 cpu controller's. */
function ownCgroups(procSelfCgroup: string): { v2: string; v1: string } {
  let v2 = '/';
  let v1 = '/';
  for (const line of procSelfCgroup.split('\n')) {
    const [id, controllers, ...rest] = line.split(':');
    const path = rest.join(':');
    if (!path.startsWith('/') || path.split('/').includes('..')) continue;
    if (id === '0' && controllers === '') v2 = path;
    else if (controllers.split(',').includes('cpu')) v1 = path;
  }
  return { v2, v1 };
}

/** `mount` + `path`, then each parent of it, up to `mount` itself. */
function ancestors(mount: string, path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  return parts.map((_, i) => `${mount}/${parts.slice(0, parts.length - i).join('/')}`).concat(mount);
}

/** The smallest value `read` gives for `dirs` (Infinity = present but unlimited); undefined when none was readable. */
function smallest(dirs: string[], read: (dir: string) => number | undefined): number | undefined {
  let min: number | undefined;
  for (const dir of dirs) {
    const value = read(dir);
    if (value !== undefined) min = Math.min(min ?? Infinity, value);
  }
  return min;
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
