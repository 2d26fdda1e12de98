// Preload: V8's sampling heap profiler over a window of a benchmark's load, objects collected by GC included
// (so it shows what is allocated, not only what survives):
//   BENCH_PROFILE=traffic-logger BENCH_NODE_ARGS="--require ./bench/lib/profile/alloc-profile.cjs" node bench/footprint.mjs
// ALLOC_START_MS after start (default 14000: past start-up and idle), for ALLOC_DURATION_MS (default 25000);
// writes ALLOC_OUT (default /tmp/alloc-<pid>.heapprofile, opens in Chrome DevTools' Memory tab). Summarise
// it with `node bench/lib/profile/alloc-summary.cjs <file> [min object bytes]`.
const inspector = require('node:inspector');
const fs = require('node:fs');

const session = new inspector.Session();
session.connect();
const startMs = Number(process.env.ALLOC_START_MS || 14000);
const durationMs = Number(process.env.ALLOC_DURATION_MS || 25000);
const outFile = process.env.ALLOC_OUT || `/tmp/alloc-${process.pid}.heapprofile`;
setTimeout(() => {
  const options = { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true };
  session.post('HeapProfiler.startSampling', options, (err) => {
    if (err) return process.stderr.write(`alloc-profile: ${err.message}\n`);
    setTimeout(() => {
      session.post('HeapProfiler.stopSampling', (stopErr, result) => {
        if (stopErr) return process.stderr.write(`alloc-profile: ${stopErr.message}\n`);
        fs.writeFileSync(outFile, JSON.stringify(result.profile));
        process.stderr.write(`alloc-profile: written ${outFile}\n`);
      });
    }, durationMs).unref();
  });
}, startMs).unref();
