import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const builtKit = path.resolve(__dirname, '../dist/index.js');

/**
 * Runs a process (the built kit, as the services load it) that sets the percent, then turns over long-lived
 * objects: each is kept long enough to be promoted to the old generation and then dropped, as the engine's
 * request journal does. Returns how many major collections it took.
 */
function majorCollectionsWith(percent: number): number {
  const script = `
    const { PerformanceObserver, constants } = require('node:perf_hooks');
    require(${JSON.stringify(builtKit)}).setHeapGrowingPercent(${percent});
    let majors = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++;
    }).observe({ entryTypes: ['gc'] });
    const live = new Array(200000);
    for (let i = 0; i < 3000000; i++) live[i % live.length] = { i, text: 'entry ' + i, tags: [i, i + 1, i + 2] };
    setTimeout(() => process.stdout.write(String(majors)), 50);
  `;
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

describe('setHeapGrowingPercent in a service process (built kit)', () => {
  beforeAll(() => {
    if (!existsSync(builtKit)) throw new Error(`${builtKit} is missing: run npm run build first`);
  });

  it('makes V8 collect the old generation sooner the smaller the percent', () => {
    // 14 and 4 on the machine it was written on, every run: the factor is fixed, not a heuristic
    const tight = majorCollectionsWith(10);
    const loose = majorCollectionsWith(300);
    expect(tight).toBeGreaterThan(2 * loose);
  });
});
