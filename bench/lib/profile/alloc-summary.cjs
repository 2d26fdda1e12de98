// Summary of a sampling heap profile (alloc-profile.cjs): bytes allocated per function and per call stack,
// only objects of at least `min` bytes (second argument, default 0; 131072 shows V8's large objects).
//   node bench/lib/profile/alloc-summary.cjs /tmp/alloc-<pid>.heapprofile [min]
const fs = require('node:fs');

const profile = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const min = Number(process.argv[3] || 0);
const nodes = new Map();
(function index(node, parent) {
  node.parent = parent;
  nodes.set(node.id, node);
  for (const child of node.children) index(child, node);
})(profile.head, null);
const frame = (n) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;
const byFunction = new Map();
const byStack = new Map();
let total = 0;
let count = 0;
for (const sample of profile.samples) {
  if (sample.size < min) continue;
  total += sample.size;
  count++;
  const node = nodes.get(sample.nodeId);
  byFunction.set(frame(node), (byFunction.get(frame(node)) ?? 0) + sample.size);
  const stack = [];
  for (let n = node; n && n.parent && stack.length < 8; n = n.parent) stack.push(frame(n));
  const key = stack.join(' <- ');
  byStack.set(key, (byStack.get(key) ?? 0) + sample.size);
}
const mb = (x) => (x / 1048576).toFixed(1).padStart(8);
const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
process.stdout.write(`${count} sampled objects >= ${min} bytes, ${mb(total).trim()} MB\n\nby function (MB):\n`);
for (const [k, v] of top(byFunction, 20)) process.stdout.write(`${mb(v)}  ${k}\n`);
process.stdout.write('\nby stack (MB):\n');
for (const [k, v] of top(byStack, 12)) process.stdout.write(`${mb(v)}  ${k}\n\n`);
