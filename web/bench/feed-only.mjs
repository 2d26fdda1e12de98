#!/usr/bin/env node
// The traffic monitor alone under a synthetic live feed: a stand-in read API (this script) sends RATE
// exchange events per second over SSE to the built dashboard (npm run build -w @mockyard/web) for SECONDS,
// and Chromium reports frames per second, main-thread long tasks, rows in the DOM and how long a click on a
// row takes to show its detail while the feed runs. It measures the page, not the services.
//
//   node web/bench/feed-only.mjs [RATE=1000] [SECONDS=10]
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const rate = Number(process.argv[2] ?? 1000);
const seconds = Number(process.argv[3] ?? 10);
const webDir = join(dirname(fileURLToPath(import.meta.url)), '..');

let seq = 0;
const exchange = (i) => ({
  id: `ex-${i}`, seq: i, startedAt: new Date().toISOString(), durationMs: 3 + (i % 97), source: 'proxy', method: ['GET', 'POST', 'PUT'][i % 3],
  url: `http://api.test/orders/${i}?page=${i % 7}`, host: 'api.test', path: `/orders/${i}`, status: [200, 201, 404, 500][i % 4], error: null,
  requestBodySize: i % 300, responseBodySize: (i * 7) % 5000, matchedStubId: null,
});
const body = (value) => ({ encoding: 'utf8', data: JSON.stringify(value), size: JSON.stringify(value).length, truncated: false, contentType: 'application/json' });
const api = createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  const json = (status, value) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(value)); };
  if (url.pathname === '/api/requests') return json(200, { content: [], totalElements: 0, totalPages: 0, number: 0, size: 100, numberOfElements: 0, first: true, last: true, empty: true, totalElementsExact: true });
  if (url.pathname === '/api/stream') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const perTick = Math.max(1, Math.round(rate / 20));
    const timer = setInterval(() => {
      let out = '';
      for (let k = 0; k < perTick; k += 1) { seq += 1; out += `id: ${seq}\nevent: exchange\ndata: ${JSON.stringify(exchange(seq))}\n\n`; }
      res.write(out);
    }, 50);
    req.on('close', () => clearInterval(timer));
    return;
  }
  if (url.pathname.startsWith('/api/exchanges/')) {
    const e = exchange(Number(url.pathname.split('-').pop()));
    return json(200, { ...e, request: { method: e.method, url: e.url, headers: { accept: '*/*' }, body: body({ order: 1 }) }, response: { status: e.status, headers: { 'content-type': 'application/json' }, body: body({ ok: true, items: [1, 2, 3] }) } });
  }
  json(404, { title: 'not found', status: 404 });
});
await new Promise((resolve) => api.listen(0, '127.0.0.1', resolve));
const apiUrl = `http://127.0.0.1:${api.address().port}`;

const webPort = await new Promise((resolve) => { const s = createServer(); s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); }); });
const web = spawn(process.execPath, [join(webDir, '.next/standalone/web/server.js')], {
  env: { ...process.env, PORT: String(webPort), HOSTNAME: '127.0.0.1', GATEWAY_URL: apiUrl, NEXT_TELEMETRY_DISABLED: '1' }, stdio: 'ignore',
});
const webUrl = `http://127.0.0.1:${webPort}`;
for (let i = 0; ; i += 1) {
  try { if ((await fetch(`${webUrl}/bff/session`)).ok) break; } catch { if (i > 100) throw new Error('dashboard did not start (built?)'); }
  await new Promise((resolve) => setTimeout(resolve, 200));
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
const page = await browser.newPage({ viewport: { width: 1440, height: 860 } });
await page.addInitScript(() => {
  window.__longTasks = [];
  new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__longTasks.push(entry.duration); }).observe({ type: 'longtask', buffered: true });
});
await page.goto(webUrl);
await page.getByText('live', { exact: true }).waitFor();
await page.evaluate(() => { window.__longTasks.length = 0; window.__frames = 0; const tick = () => { window.__frames += 1; requestAnimationFrame(tick); }; requestAnimationFrame(tick); });
const started = Date.now();
await page.waitForTimeout(seconds * 1000);
const elapsed = (Date.now() - started) / 1000;
const sample = await page.evaluate(() => ({ longTasks: window.__longTasks, frames: window.__frames, footer: document.querySelector('.list-footer')?.textContent ?? '', rows: document.querySelectorAll('.list-row').length }));
const clickStarted = Date.now();
await page.locator('.list-row').nth(5).click();
await page.getByText('Copy as curl').waitFor();
const clickToDetailMs = Date.now() - clickStarted;
await browser.close();
web.kill('SIGTERM');
api.close();
process.stdout.write(`${JSON.stringify({
  eventsPerSecond: rate, seconds: Math.round(elapsed), framesPerSecond: Math.round(sample.frames / elapsed), longTasks: sample.longTasks.length,
  longestTaskMs: Math.round(Math.max(0, ...sample.longTasks)), blockedMsPerSecond: Math.round(sample.longTasks.reduce((a, b) => a + b, 0) / elapsed),
  rowsInDom: sample.rows, footer: sample.footer.trim(), clickToDetailMs,
}, null, 2)}\n`);
process.exit(0);
