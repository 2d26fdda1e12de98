import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from './support/launch-browser';
import { prepareScreenshotDir } from './support/screenshot-dir';
import { stepWith } from './support/step';
import { type RunningStack, freePort, startExtraEngine, startStack } from '@mockyard/testkit';

/**
 * The dashboard in Debian's Chromium against the real stack (gateway, logger, hub, engine, web as
 * processes on free ports). Screenshots go to tests/.artifacts, or to docs/screenshots with
 * UPDATE_SCREENSHOTS=1 (the README shows those).
 */
jest.setTimeout(60_000);

let shotsDir: string;
let stack: RunningStack;
let upstream: Server;
let upstreamUrl: string;
let browser: { context: BrowserContext; close: () => Promise<void> };
let page: Page;
const extraEngines: Array<{ stop: () => Promise<void> }> = [];

beforeAll(async () => {
  shotsDir = prepareScreenshotDir();
  upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const status = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('status') ?? 200);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ greeting: 'hello-from-upstream', method: req.method, received: body ? JSON.parse(body) : null }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  stack = await startStack();
  browser = await launchBrowser();
  page = await browser.context.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  for (const engine of extraEngines) await engine.stop();
  await stack?.stop();
  await new Promise((resolve) => upstream?.close(resolve));
}, 60_000);

const sendThroughProxy = (path: string, init?: RequestInit) => fetch(`${stack.gatewayUrl}/proxy?url=${encodeURIComponent(`${upstreamUrl}${path}`)}`, init);
const screenshot = (name: string) => page.screenshot({ path: join(shotsDir, `${name}.png`) });

const step = stepWith(() => ({ page, stack }));

/**
 * Holds the page's requests that `matches` until `release` (the history arriving late); `stop` releases them
 * and removes the route.
 */
async function holdRequests(matches: (url: URL) => boolean) {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(matches, async (route) => {
    await held;
    await route.continue();
  });
  return {
    release: () => release(),
    stop: async () => {
      release();
      await page.unroute(matches);
    },
  };
}

describe('the dashboard in a browser, against the real stack', () => {
  step('shows traffic sent through /proxy live in the monitor, and its detail shows both bodies', async () => {
    await page.goto(`${stack.gatewayUrl}/`);
    await page.getByText('live', { exact: true }).waitFor({ timeout: 15_000 });
    const response = await sendThroughProxy('/browser/orders?x=1', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ order: 42 }),
    });
    expect(response.status).toBe(200);
    for (const [path, method] of [['/catalog/items?status=404', 'GET'], ['/payments/charge?status=502', 'PUT'], ['/catalog/items?page=2', 'GET'], ['/login?status=302', 'POST']]) {
      await sendThroughProxy(path, { method, headers: { 'content-type': 'application/json' }, body: method === 'GET' ? undefined : '{"a":1}' });
    }
    const row = page.locator('.list-row', { hasText: '/browser/orders' });
    await row.waitFor({ timeout: 15_000 });
    await page.locator('.list-row', { hasText: '/login' }).waitFor({ timeout: 15_000 });
    await expect(page.locator('.list-row', { hasText: '/payments/charge' }).locator('.status-server-error').count()).resolves.toBe(1);
    await expect(row.locator('.status').textContent()).resolves.toBe('200');
    await row.click();
    const detail = page.getByRole('complementary', { name: 'Exchange detail' });
    await detail.getByText('"hello-from-upstream"').first().waitFor();
    await detail.getByRole('region', { name: 'Request' }).getByText('"order"').waitFor();
    await screenshot('traffic-monitor');

    await detail.getByRole('button', { name: 'Turn into stub…' }).click();
    await page.waitForURL(/\/stubs\?draft=1/);
    await page.getByRole('button', { name: 'Create stub' }).waitFor();
    const draft = await page.locator('.cm-content').textContent();
    expect(draft).toContain('"urlPath": "/browser/orders"');
    expect(draft).toContain('"hello-from-upstream"');
  });

  step('loads the history by itself once the read API answers again', async () => {
    let asked = 0;
    const historyRequests = (url: URL) => url.pathname === '/bff/traffic/requests';
    await page.route(historyRequests, async (route) => {
      asked += 1;
      if (asked > 1) return route.continue();
      return route.fulfill({
        status: 503, contentType: 'application/problem+json', headers: { 'retry-after': '5' },
        body: JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'the database is unavailable (test)' }),
      });
    });
    try {
      await page.goto(`${stack.gatewayUrl}/?url=%2Fbrowser%2Forders`);
      const failed = page.getByRole('alert').filter({ hasText: 'Could not load traffic history: the service is down or unreachable.' });
      await failed.waitFor();
      // no click on Retry: the monitor tries again by itself
      await page.locator('.list-row', { hasText: '/browser/orders' }).first().waitFor({ timeout: 15_000 });
      await expect(failed.count()).resolves.toBe(0);
      expect(asked).toBe(2);
    } finally {
      await page.unroute(historyRequests);
    }
  });

  step('keeps what the live feed delivered on top when the history arrives after it', async () => {
    const history = await holdRequests((url) => url.pathname === '/bff/traffic/requests');
    try {
      await page.goto(`${stack.gatewayUrl}/?url=%2Fbrowser%2F`);
      await page.getByText('live', { exact: true }).waitFor({ timeout: 15_000 });
      await sendThroughProxy('/browser/while-history-loads');
      await page.locator('.list-row', { hasText: '/browser/while-history-loads' }).waitFor({ timeout: 15_000 });
      history.release();
      await page.locator('.list-row', { hasText: '/browser/orders' }).first().waitFor();
      const paths = await page.locator('.list-row .col-url').allTextContents();
      expect(paths[0]).toContain('/browser/while-history-loads');
      expect(paths.filter((path) => path.includes('/browser/while-history-loads'))).toHaveLength(1);
    } finally {
      await history.stop();
    }
  });

  step('drops a history page that arrives after the filters changed', async () => {
    const firstHistoryRequest = (url: URL) => url.pathname === '/bff/traffic/requests' && !url.searchParams.has('method');
    const firstHistory = await holdRequests(firstHistoryRequest);
    try {
      await page.goto(`${stack.gatewayUrl}/?url=%2Fbrowser%2Forders`);
      const answered = page.waitForResponse((response) => firstHistoryRequest(new URL(response.url())));
      await page.getByLabel('Method').selectOption('PUT');
      await page.getByText('No exchanges match these filters yet.').waitFor();
      firstHistory.release();
      await answered;
      await page.waitForTimeout(500); // what the page does with the late answer: nothing is the expectation
      await expect(page.locator('.list-row').count()).resolves.toBe(0);
      await expect(page.getByText('No exchanges match these filters yet.').isVisible()).resolves.toBe(true);
    } finally {
      await firstHistory.stop();
    }
  });

  step('keeps a filter from the page URL across a reload and applies it to the list', async () => {
    await sendThroughProxy('/browser/other');
    await page.goto(`${stack.gatewayUrl}/?method=POST&url=%2Fbrowser%2Forders`);
    const check = async () => {
      await expect(page.getByLabel('Method').inputValue()).resolves.toBe('POST');
      await expect(page.getByLabel('URL contains').inputValue()).resolves.toBe('/browser/orders');
      await page.locator('.list-row', { hasText: '/browser/orders' }).first().waitFor({ timeout: 15_000 });
      await expect(page.locator('.list-row', { hasText: '/browser/other' }).count()).resolves.toBe(0);
    };
    await check();
    await page.reload();
    await check();
    expect(new URL(page.url()).searchParams.get('method')).toBe('POST');

    const harHref = await page.getByRole('link', { name: 'Export HAR' }).getAttribute('href');
    expect(harHref).toContain('method=POST');
    const har = await (await fetch(`${stack.gatewayUrl}${harHref}`)).json();
    expect(har.log.entries.length).toBeGreaterThan(0);
    expect(har.log.entries.every((entry: { request: { method: string; url: string } }) => entry.request.method === 'POST' && entry.request.url.includes('/browser/orders'))).toBe(true);

    // keyboard: the list takes focus and arrow keys move the open exchange
    await page.getByRole('listbox', { name: 'Exchanges, newest first' }).focus();
    await page.keyboard.press('Home');
    await page.waitForURL(/[?&]id=/);
    await page.getByRole('complementary', { name: 'Exchange detail' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('complementary', { name: 'Exchange detail' }).waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('id')).toBeNull();
  });

  step('pauses the live list without losing what arrives meanwhile, and clears the view', async () => {
    await page.goto(`${stack.gatewayUrl}/?url=%2Fpaused`);
    await page.getByText('live', { exact: true }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: '❚❚ Pause' }).click();
    await sendThroughProxy('/paused/one');
    await sendThroughProxy('/paused/two');
    await page.getByRole('button', { name: '▶ Resume (2 new)' }).waitFor({ timeout: 15_000 });
    await expect(page.locator('.list-row').count()).resolves.toBe(0);
    await page.getByRole('button', { name: '▶ Resume (2 new)' }).click();
    await page.locator('.list-row', { hasText: '/paused/one' }).waitFor();
    await page.locator('.list-row', { hasText: '/paused/two' }).waitFor();
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect(page.locator('.list-row').count()).resolves.toBe(0);
    await sendThroughProxy('/paused/three');
    await page.locator('.list-row', { hasText: '/paused/three' }).waitFor({ timeout: 15_000 });
  });

  step('creates a stub in the JSON editor that answers on the engine port and shows in the list', async () => {
    await page.goto(`${stack.gatewayUrl}/stubs`);
    await page.getByRole('button', { name: 'New stub' }).click();
    const editor = page.locator('.cm-content');
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText('{ "request": { "method": "GET", "urlPath": "/browser-hello" }, "response": { "status": 0 } }');
    await page.getByText('response.status:').waitFor();
    await expect(page.getByRole('button', { name: 'Create stub' }).isDisabled()).resolves.toBe(true);
    // passes the editor's schema check but the engine refuses it: the engine's own words are shown
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText('{ "request": { "method": "GET", "urlPath": "/browser-hello", "headers": { "X": { "noSuchOperator": "1" } } }, "response": { "status": 200 } }');
    await page.getByRole('button', { name: 'Create stub' }).click();
    await page.getByRole('alert').filter({ hasText: /refused it — \/request\/headers\/X: .*unknown match operator 'noSuchOperator'/ }).waitFor();
    await page.getByRole('list', { name: 'Problems' }).getByText(/^request\.headers\.X: engine: .*unknown match operator/).waitFor();
    await page.locator('.cm-lintRange-error').first().waitFor();
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(JSON.stringify({
      name: 'made in the browser', priority: 3,
      request: { method: 'GET', urlPath: '/browser-hello' },
      response: { status: 200, jsonBody: { from: 'editor' } },
    }, null, 2));
    await page.getByRole('button', { name: 'Create stub' }).click();
    await page.getByText(/^Created on/).waitFor();
    const answer = await fetch(`${stack.engineUrl}/browser-hello`);
    expect({ status: answer.status, body: await answer.json() }).toEqual({ status: 200, body: { from: 'editor' } });
    await page.locator('.stub-item', { hasText: '/browser-hello' }).waitFor();
    await screenshot('stub-editor');
  });

  step('shows the stubs of the engine made active in the registry', async () => {
    const second = await startExtraEngine();
    extraEngines.push(second);
    const created = await fetch(`${second.url}/__admin/mappings`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ request: { method: 'GET', urlPath: '/only-on-second' }, response: { status: 204 } }),
    });
    expect(created.status).toBe(201);

    await page.goto(`${stack.gatewayUrl}/engines`);
    await page.getByLabel('Name').fill('second');
    await page.getByLabel('URL', { exact: true }).fill(second.url);
    await page.getByRole('button', { name: 'Add engine' }).click();
    await page.getByRole('button', { name: 'Make second active' }).click();
    await page.locator('tr', { hasText: 'second' }).getByText('active', { exact: true }).waitFor();

    // an engine that is down shows as down (fleet tile, table) and its stubs as an error, never a spinner
    const deadUrl = `http://127.0.0.1:${await freePort()}`;
    await page.getByLabel('Name').fill('gone');
    await page.getByLabel('URL', { exact: true }).fill(deadUrl);
    await page.getByRole('button', { name: 'Add engine' }).click();
    await page.locator('.tile.down', { hasText: 'gone' }).waitFor({ timeout: 20_000 });
    await page.getByText('1 down').waitFor();
    await page.locator('.tile.up', { hasText: 'second' }).waitFor();
    await screenshot('engines');
    const goneId = await page.locator('.tile', { hasText: 'gone' }).getAttribute('data-engine-id');
    await page.goto(`${stack.gatewayUrl}/stubs?engine=${goneId}`);
    await page.getByRole('alert').filter({ hasText: 'Could not load the stubs of gone' }).waitFor({ timeout: 20_000 });

    // edit and remove an engine
    await page.goto(`${stack.gatewayUrl}/engines`);
    await page.getByRole('button', { name: 'Edit gone' }).click();
    await page.getByLabel('Engine name').fill('gone-renamed');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.tile', { hasText: 'gone-renamed' }).waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Remove gone-renamed' }).click();
    await page.locator('.tile', { hasText: 'gone-renamed' }).waitFor({ state: 'detached' });

    await page.goto(`${stack.gatewayUrl}/stubs`);
    await page.locator('.stub-item', { hasText: '/only-on-second' }).waitFor();
    await expect(page.locator('.stub-item', { hasText: '/browser-hello' }).count()).resolves.toBe(0);

    // import a file of mappings into the (now active) second engine
    await page.locator('input[type=file]').setInputFiles({
      name: 'mappings.json', mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ mappings: [{ request: { method: 'GET', urlPath: '/imported' }, response: { status: 200, body: 'imported' } }] })),
    });
    await page.getByText('Imported 1 stub from mappings.json.').waitFor();
    await page.locator('.stub-item', { hasText: '/imported' }).waitFor();
    expect(await (await fetch(`${second.url}/imported`)).text()).toBe('imported');

    // push it to both engines and watch each engine's result
    await page.getByRole('checkbox', { name: /Select .* for pushing/ }).first().check();
    const pushPanel = page.getByRole('region', { name: /Push 1 stub to engines/ });
    await pushPanel.getByRole('checkbox', { name: 'local' }).check();
    await pushPanel.getByRole('checkbox', { name: 'second' }).check();
    await pushPanel.getByRole('button', { name: 'Push to 2 engines' }).click();
    await pushPanel.locator('tbody tr', { hasText: 'completed' }).nth(1).waitFor({ timeout: 20_000 });
    await expect(pushPanel.locator('tbody tr').count()).resolves.toBe(2);
    await screenshot('stubs-push');

    // a stub with WireMock 3's method pattern does not break the list; its rule shows as one line
    const either = await fetch(`${second.url}/__admin/mappings`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ request: { method: { oneOf: ['PUT', 'PATCH'] }, urlPath: '/either' }, response: { status: 204 } }),
    });
    expect(either.status).toBe(201);
    await page.reload();
    await expect(page.locator('.stub-item', { hasText: '/either' }).locator('.method').textContent({ timeout: 10_000 })).resolves.toBe('PUT | PATCH');
    await page.locator('.stub-item', { hasText: '/only-on-second' }).waitFor();

    await page.goto(`${stack.gatewayUrl}/engines`);
    await page.getByRole('button', { name: /^Make .* active$/ }).first().click();
    await page.goto(`${stack.gatewayUrl}/stubs`);
    await page.locator('.stub-item', { hasText: '/browser-hello' }).waitFor();
  });

  step('lists an unmatched request with a way to create the stub that would have matched', async () => {
    expect((await fetch(`${stack.engineUrl}/browser-hellp`)).status).toBe(404);
    await page.goto(`${stack.gatewayUrl}/unmatched`);
    const item = page.getByRole('article', { name: 'GET /browser-hellp' });
    await item.waitFor({ timeout: 15_000 });
    await screenshot('unmatched');
    await item.getByRole('button', { name: 'Create a stub that matches…' }).click();
    await page.waitForURL(/\/stubs\?draft=1/);
    await expect(page.locator('.cm-content').textContent()).resolves.toContain('/browser-hellp');
  });

  step('records traffic through the engine into stubs, and shows the proxy settings and the dark theme', async () => {
    await page.goto(`${stack.gatewayUrl}/engine-proxy`);
    await page.getByText('State:').waitFor();
    await page.getByLabel('Target URL').fill(upstreamUrl);
    await page.getByRole('button', { name: 'Enable proxy' }).click();
    await page.getByRole('status').filter({ hasText: 'State:' }).getByText('enabled', { exact: true }).waitFor();
    const proxied = await fetch(`${stack.engineUrl}/not-stubbed?status=203`);
    expect({ status: proxied.status, greeting: (await proxied.json()).greeting }).toEqual({ status: 203, greeting: 'hello-from-upstream' });
    await page.getByRole('button', { name: 'Disable proxy' }).click();
    await page.getByRole('status').filter({ hasText: 'State:' }).getByText('disabled', { exact: true }).waitFor();

    await page.getByLabel('Record from').fill(upstreamUrl);
    await page.getByRole('button', { name: 'Start recording' }).click();
    await page.getByText('● recording').waitFor();
    expect((await fetch(`${stack.engineUrl}/recorded/path?status=201`)).status).toBe(201);
    await page.getByRole('button', { name: 'Stop & keep stubs' }).click();
    await page.getByText(/^[1-9]\d* stubs? captured$/).waitFor();
    await page.getByRole('cell', { name: /\/recorded\/path/ }).first().waitFor();
    await screenshot('proxy-recording');
    await page.goto(`${stack.gatewayUrl}/`);
    await page.getByRole('button', { name: /Switch to dark theme/ }).click();
    await page.locator('.list-row').first().click();
    await page.getByRole('complementary', { name: 'Exchange detail' }).waitFor();
    await screenshot('traffic-monitor-dark');
    await page.getByRole('button', { name: /Switch to light theme/ }).click();
  });
});
