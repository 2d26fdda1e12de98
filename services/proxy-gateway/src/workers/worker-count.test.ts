import os from 'node:os';
import { availableCpus, cgroupCpuQuota, MAX_AUTO_WORKERS, resolveWorkerCount } from './worker-count';

describe('resolveWorkerCount', () => {
  it.each([
    ['auto', 1, 1],
    ['auto', 2, 2],
    ['auto', 64, MAX_AUTO_WORKERS],
    ['auto', 0, 1],
    [1, 16, 1],
    [8, 2, 8],
  ] as const)('%s on %i CPUs → %i', (setting, cpus, expected) => {
    expect(resolveWorkerCount(setting, cpus)).toBe(expected);
  });
});

/** A file system holding only `files`; any other path is missing. */
function files(entries: Record<string, string>): (path: string) => string {
  return (path) => {
    if (path in entries) return entries[path];
    throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
  };
}

describe('cgroupCpuQuota', () => {
  it.each([
    ['150000 100000\n', 1.5],
    ['50000 100000\n', 0.5],
    ['200000 50000', 4],
    ['max 100000\n', undefined],
  ])('cgroup v2 cpu.max %j → %s CPUs', (content, expected) => {
    expect(cgroupCpuQuota(files({ '/sys/fs/cgroup/cpu.max': content }))).toBe(expected);
  });

  it('reads cgroup v1 quota and period when there is no cpu.max', () => {
    const v1 = (quota: string) => files({ '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': quota, '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n' });
    expect(cgroupCpuQuota(v1('250000\n'))).toBe(2.5);
    expect(cgroupCpuQuota(v1('-1\n'))).toBeUndefined();
  });

  it('takes the smallest quota from its own cgroup up to the root (systemd CPUQuota= on a slice)', () => {
    const slice = {
      '/proc/self/cgroup': '0::/system.slice/mockyard.slice/gateway.service\n',
      '/sys/fs/cgroup/system.slice/mockyard.slice/gateway.service/cpu.max': 'max 100000\n',
      '/sys/fs/cgroup/system.slice/mockyard.slice/cpu.max': '150000 100000\n',
      '/sys/fs/cgroup/system.slice/cpu.max': '400000 100000\n',
    };
    expect(cgroupCpuQuota(files(slice))).toBe(1.5);
    expect(cgroupCpuQuota(files({ ...slice, '/sys/fs/cgroup/system.slice/mockyard.slice/gateway.service/cpu.max': '50000 100000' }))).toBe(0.5);
    // every level unlimited
    expect(cgroupCpuQuota(files({ '/proc/self/cgroup': '0::/a/b\n', '/sys/fs/cgroup/a/b/cpu.max': 'max 100000', '/sys/fs/cgroup/a/cpu.max': 'max 100000' }))).toBeUndefined();
  });

  it('reads a container\'s own root when its cgroup path is the host\'s (cgroup v1 inside a container)', () => {
    const container = {
      '/proc/self/cgroup': '12:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n0::/\n',
      '/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us': '100000\n',
      '/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us': '100000\n',
    };
    expect(cgroupCpuQuota(files(container))).toBe(1);
    // the same path mounted as on the host: the container's level is the smaller one
    expect(
      cgroupCpuQuota(files({ ...container, '/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us': '50000', '/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us': '100000' })),
    ).toBe(0.5);
  });

  it('is undefined without any cgroup files', () => {
    expect(cgroupCpuQuota(files({}))).toBeUndefined();
  });
});

describe('availableCpus', () => {
  it('rounds a fractional quota up and never exceeds the CPUs the process may run on', () => {
    const cpus = os.availableParallelism();
    expect(availableCpus(files({ '/sys/fs/cgroup/cpu.max': '150000 100000' }))).toBe(Math.min(cpus, 2));
    expect(availableCpus(files({ '/sys/fs/cgroup/cpu.max': '10000 100000' }))).toBe(1);
    expect(availableCpus(files({ '/sys/fs/cgroup/cpu.max': `${(cpus + 8) * 100000} 100000` }))).toBe(cpus);
    expect(availableCpus(files({}))).toBe(cpus);
  });
});
