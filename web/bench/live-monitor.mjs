#!/usr/bin/env node
// How the traffic monitor keeps up with a burst of exchanges, measured in Debian's Chromium against a
// running stack: sends COUNT requests through the gateway's /proxy at RATE per second (to a loopback
// upstream this script starts), and reports how long after the last response the page showed them all, the longest main-thread task, and the total time the main thread was blocked by long tasks.
//
//   node web/bench/live-monitor.mjs http://127.0.0.1:<gateway port> [COUNT=3000] [RATE=500]
import { createServer } from 'node:http';
import { chromium } from 'playwright-core';

const [gatewayUrl, countArg = '3000', rateArg = '500'] = process.argv.slice(2);
if (!gatewayUrl) {
  process.stderr.write('usage: node web/bench/live-monitor.mjs <gateway url> [count] [rate per second]\n');
  process.exit(2);
}
const count = Number(countArg);
const rate = Number(rateArg);

const upstream = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"ok":true}');
});
await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const upstreamUrl = `http://127.0.0.1:${upstream.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage({ viewport: { width: 1440, height: 860 } });
await page.addInitScript(() => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });
});
const marker = `bench-${Date.now()}`;
await page.goto(`${gatewayUrl}/?url=${marker}`);
await page.getByText('live', { exact: true }).waitFor({ timeout: 15000 });
await page.evaluate(() => { window.__longTasks.length = 0; });

const started = Date.now();
const intervalMs = 1000 / rate;
const inFlight = [];
for (let i = 0; i < count; i += 1) {
  const due = started + i * intervalMs;
  const wait = due - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  inFlight.push(fetch(`${gatewayUrl}/proxy?url=${encodeURIComponent(`${upstreamUrl}/${marker}/${i}`)}`).then((r) => r.arrayBuffer()).catch(() => undefined));
}
await Promise.all(inFlight);
const sentAllMs = Date.now() - started;
const lastSentAt = Date.now();
// Stored order is not send order (the logger writes in batches), so wait for the count, not one row.
await page.waitForFunction((n) => Number(/^(\d+) shown/.exec(document.querySelector('.list-footer')?.textContent ?? '')?.[1] ?? 0) >= n, count, { timeout: 120000, polling: 50 });
const lagMs = Date.now() - lastSentAt;
const shown = await page.evaluate(() => document.querySelector('.list-footer')?.textContent ?? '');
const longTasks = await page.evaluate(() => window.__longTasks);
const domRows = await page.locator('.list-row').count();
await browser.close();
upstream.close();

const total = longTasks.reduce((a, b) => a + b, 0);
const result = {
  requests: count,
  targetRatePerSecond: rate,
  achievedRatePerSecond: Math.round((count / sentAllMs) * 1000),
  allRowsShownAfterLastResponseMs: lagMs,
  longTasks: longTasks.length,
  longestTaskMs: Math.round(Math.max(0, ...longTasks)),
  blockedMsPerSecondOfBurst: Math.round(total / (sentAllMs / 1000)),
  rowsInDom: domRows,
  footer: shown.trim(),
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
