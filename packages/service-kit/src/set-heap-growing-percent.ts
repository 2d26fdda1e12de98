import { setFlagsFromString } from 'node:v8';

/**
 * Sets how far V8 lets the old generation grow past what was live after a major collection before it starts
 * the next one: a factor of 1 + percent / 100 (V8's `--heap-growing-percent`); 0 leaves V8's own heuristic,
 * which picks a factor up to 4 while the process is busy. A service whose objects live long enough to be
 * promoted and then die (the engine's request journal turning over, the logger's batches) otherwise carries up
 * to three times its live heap in garbage: the engine at 5,000 requests/s peaked at 285 MB RSS with V8's
 * factor and 177 MB with 100 (BENCHMARKS.md, "Heap growth"). Called from main.ts once, before the service
 * starts; V8 reads the flag at every major collection, so setting it at run time takes effect (Node does not
 * accept this flag in NODE_OPTIONS, hence the config key).
 */
export function setHeapGrowingPercent(percent: number): void {
  if (!Number.isInteger(percent) || percent < 0) throw new RangeError(`heap growing percent must be a whole number >= 0, got ${percent}`);
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}
