// Preload for profiling a service's memory under a benchmark's load:
//   BENCH_PROFILE=traffic-logger BENCH_NODE_ARGS="--require ./bench/lib/profile/mem-sample.cjs" node bench/footprint.mjs
// Writes process.memoryUsage() and V8's heap spaces (MB) every 250 ms to MEM_SAMPLE_OUT (default
// /tmp/mem-<pid>.log): which part of the heap grows under load (young generation, old space, large objects).
const v8 = require('node:v8');
const fs = require('node:fs');

const out = fs.createWriteStream(process.env.MEM_SAMPLE_OUT || `/tmp/mem-${process.pid}.log`);
const mb = (x) => (x / 1048576).toFixed(1);
setInterval(() => {
  const m = process.memoryUsage();
  const sp = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, s.space_size]));
  out.write(
    `${Date.now()} rss=${mb(m.rss)} heapTotal=${mb(m.heapTotal)} heapUsed=${mb(m.heapUsed)} external=${mb(m.external)} arrayBuffers=${mb(m.arrayBuffers)} ` +
      `new=${mb(sp.new_space)} old=${mb(sp.old_space)} largeObjects=${mb(sp.large_object_space)} newLargeObjects=${mb(sp.new_large_object_space ?? 0)} code=${mb(sp.code_space)}\n`,
  );
}, 250).unref();
