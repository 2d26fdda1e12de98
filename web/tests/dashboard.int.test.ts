import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
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
      const query = new URL(req.url ?? '/', 'http://x').searchParams;
      const status = Number(query.get('status') ?? 200);
      // ?latin1: text in a declared charset other than UTF-8
      if (query.has('latin1')) {
        res.writeHead(status, { 'content-type': 'text/plain; charset=iso-8859-1' });
        res.end(Buffer.from('café crème', 'latin1'));
        return;
      }
      // ?padKb=n: a body larger than the capture keeps; ?gzip: compressed
      const padding = query.has('padKb') ? { padding: 'x'.repeat(Number(query.get('padKb')) * 1024) } : {};
      const json = JSON.stringify({ greeting: 'hello-from-upstream', method: req.method, received: body ? JSON.parse(body) : null, ...padding });
      res.writeHead(status, { 'content-type': 'application/json', ...(query.has('gzip') ? { 'content-encoding': 'gzip' } : {}) });
      res.end(query.has('gzip') ? gzipSync(json) : json);
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

/** The registry's entries as the hub lists them. */
async function listEngines(): Promise<Array<{ id: string; name: string }>> {
  const listing = await (await fetch(`${stack.gatewayUrl}/hub/admin/registry/servers`)).json();
  return listing.servers ?? listing;
}

/** Chooses an engine in the screen's engine select (its accessible name includes the chosen option). */
const chooseEngine = (id: string) => page.locator('label.field', { has: page.getByText('Engine', { exact: true }) }).locator('select').selectOption(id);

/** A hovered primary button's colours, and the theme's accent text and general hover background. */
async function readHoveredPrimaryButton(name: string) {
  const button = page.getByRole('button', { name, exact: true });
  await button.hover();
  return button.evaluate((element) => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--accent-fg)';
    probe.style.backgroundColor = 'var(--bg-hover)';
    document.body.append(probe);
    const theme = { accentFg: getComputedStyle(probe).color, bgHover: getComputedStyle(probe).backgroundColor };
    probe.remove();
    const style = getComputedStyle(element);
    return { ...theme, color: style.color, background: style.backgroundColor };
  });
}

/** The monitor's history requests: summaries of the logged exchanges (trafficClient.fetchHistory). */
const isHistoryRequest = (url: URL) => url.pathname === '/bff/traffic/exchanges' && url.searchParams.get('view') === 'summary';

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
    const historyRequests = isHistoryRequest;
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
    const history = await holdRequests(isHistoryRequest);
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
    const firstHistoryRequest = (url: URL) => isHistoryRequest(url) && !url.searchParams.has('method');
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

  step('keeps a filter chosen while the typed URL filter is still waiting to apply', async () => {
    await page.goto(`${stack.gatewayUrl}/`);
    await page.getByLabel('URL contains').fill('/browser/orders');
    await page.getByLabel('Method').selectOption('POST'); // within the typing pause
    await page.waitForURL((url) => url.searchParams.get('url') === '/browser/orders');
    await page.waitForTimeout(500);
    expect(new URL(page.url()).searchParams.get('method')).toBe('POST');
    await expect(page.getByLabel('Method').inputValue()).resolves.toBe('POST');
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

  step('shows a gzip body decompressed and text in its declared charset, and a gzip response becomes a stub that answers it', async () => {
    await sendThroughProxy('/encoded/gzip?gzip=1');
    await sendThroughProxy('/encoded/latin1?latin1=1');
    await page.goto(`${stack.gatewayUrl}/?url=%2Fencoded%2F`);
    const detail = page.getByRole('complementary', { name: 'Exchange detail' });
    await page.locator('.list-row', { hasText: '/encoded/latin1' }).click({ timeout: 15_000 });
    await detail.getByRole('region', { name: 'Response' }).getByText('café crème').waitFor();
    await page.locator('.list-row', { hasText: '/encoded/gzip' }).click();
    const response = detail.getByRole('region', { name: 'Response' });
    await response.getByText('"hello-from-upstream"').waitFor();
    await response.getByText('gzip, decompressed').waitFor();

    await detail.getByRole('button', { name: 'Turn into stub…' }).click();
    await page.waitForURL(/\/stubs\?draft=1/);
    await expect(page.locator('.cm-content').textContent()).resolves.toContain('"Content-Encoding": "gzip"');
    await page.getByRole('button', { name: 'Create stub' }).click();
    await page.getByText(/^Created on/).waitFor();
    // fetch undoes the gzip as any client does: the stub answers the upstream's JSON, not gzip bytes read as JSON
    const answer = await fetch(`${stack.engineUrl}/encoded/gzip?gzip=1`);
    expect({ status: answer.status, encoding: answer.headers.get('content-encoding'), greeting: (await answer.json()).greeting })
      .toEqual({ status: 200, encoding: 'gzip', greeting: 'hello-from-upstream' });
  });

  step('warns in the draft when the captured body was truncated', async () => {
    await sendThroughProxy('/encoded/large?padKb=300');
    await page.goto(`${stack.gatewayUrl}/?url=%2Fencoded%2Flarge`);
    await page.locator('.list-row', { hasText: '/encoded/large' }).click({ timeout: 15_000 });
    const detail = page.getByRole('complementary', { name: 'Exchange detail' });
    await detail.getByRole('region', { name: 'Response' }).getByText('truncated', { exact: true }).waitFor();
    await detail.getByRole('button', { name: 'Turn into stub…' }).click();
    await page.waitForURL(/\/stubs\?draft=1/);
    await page.getByRole('alert').filter({ hasText: /response body was truncated when it was captured: this draft holds only its first \d+ of \d+ bytes/ }).waitFor();
  });

  step('offers neither curl nor a stub for a CONNECT tunnel, whose bytes were never decrypted', async () => {
    const { hostname, port } = new URL(upstreamUrl);
    await new Promise<void>((resolve, reject) => {
      const connect = httpRequest({ host: '127.0.0.1', port: stack.ports.SERVICE_PROXY_PORT, method: 'CONNECT', path: `${hostname}:${port}` });
      connect.on('connect', (answer, socket) => {
        if (answer.statusCode !== 200) return reject(new Error(`CONNECT answered ${answer.statusCode}`));
        socket.on('data', () => {});
        socket.on('end', () => resolve());
        socket.on('error', reject);
        socket.end(`GET /through-tunnel HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`);
      });
      connect.on('error', reject);
      connect.end();
    });
    await page.goto(`${stack.gatewayUrl}/?source=tunnel`);
    await page.locator('.list-row', { hasText: 'CONNECT' }).first().click({ timeout: 15_000 });
    const detail = page.getByRole('complementary', { name: 'Exchange detail' });
    await detail.getByText('encrypted: bodies not captured', { exact: false }).waitFor();
    await expect(detail.getByRole('button', { name: 'Copy as curl' }).count()).resolves.toBe(0);
    await expect(detail.getByRole('button', { name: 'Turn into stub…' }).count()).resolves.toBe(0);
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

  step('opens a fresh editor on each New stub, colours a 5xx stub as an error, and forgets "Created" once it is deleted', async () => {
    await page.goto(`${stack.gatewayUrl}/stubs`);
    const editor = page.locator('.cm-content');
    await page.getByRole('button', { name: 'New stub' }).click();
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText('{ "edited": "before the second New stub" }');
    await page.getByRole('button', { name: 'New stub' }).click();
    await expect(editor.textContent()).resolves.not.toContain('before the second New stub');

    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(JSON.stringify({ request: { method: 'GET', urlPath: '/browser-fails' }, response: { status: 503 } }));
    await page.getByRole('button', { name: 'Create stub' }).click();
    const created = page.getByText(/^Created on/);
    await created.waitFor();
    await page.locator('.stub-item', { hasText: '/browser-fails' }).locator('.status-server-error').waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.locator('.stub-item', { hasText: '/browser-fails' }).waitFor({ state: 'detached' });
    await expect(created.count()).resolves.toBe(0);
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
    const goneId = (await page.locator('.tile', { hasText: 'gone' }).getAttribute('data-engine-id'))!;
    // switched from an engine whose stubs are shown: the error stands alone, never above the other engine's list
    await page.goto(`${stack.gatewayUrl}/stubs`);
    await page.locator('.stub-item', { hasText: '/only-on-second' }).waitFor();
    await chooseEngine(goneId);
    await page.getByRole('alert').filter({ hasText: 'Could not load the stubs of gone' }).waitFor({ timeout: 20_000 });
    await expect(page.locator('.stub-item').count()).resolves.toBe(0);
    await expect(page.getByText(/\d+ of \d+ stubs/).count()).resolves.toBe(0);
    await page.goto(`${stack.gatewayUrl}/engine-proxy`);
    await page.getByText('State:').waitFor();
    await chooseEngine(goneId);
    await page.getByRole('alert').filter({ hasText: 'Could not read the proxy settings' }).waitFor({ timeout: 20_000 });
    await expect(page.getByText('State:').count()).resolves.toBe(0);

    // "Make active" that the hub refuses (the engine was removed meanwhile) says so
    const temporary = await (await fetch(`${stack.gatewayUrl}/hub/admin/registry/servers`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'removed-meanwhile', url: `http://127.0.0.1:${await freePort()}` }),
    })).json();
    await page.goto(`${stack.gatewayUrl}/stubs?engine=${temporary.id}`);
    await page.getByRole('button', { name: 'Make active' }).waitFor();
    expect((await fetch(`${stack.gatewayUrl}/hub/admin/registry/servers/${temporary.id}`, { method: 'DELETE' })).status).toBeLessThan(300);
    await page.getByRole('button', { name: 'Make active' }).click();
    await page.getByRole('alert').filter({ hasText: 'Could not make removed-meanwhile active' }).waitFor();

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
    // another engine starts from its own state: no target typed for this one, no stubs captured on it
    const second = (await listEngines()).find((engine) => engine.name === 'second')!;
    await chooseEngine(second.id);
    await page.getByText(/stubs? captured$/).waitFor({ state: 'detached' });
    await page.getByText('State:').waitFor();
    await expect(page.getByLabel('Target URL').inputValue()).resolves.toBe('');
    await expect(page.getByLabel('Record from').inputValue()).resolves.toBe('');

    // a hovered primary button keeps its colours in both themes
    const light = await readHoveredPrimaryButton('Enable proxy');
    expect(light.color).toBe(light.accentFg);
    expect(light.background).not.toBe(light.bgHover);
    await page.getByRole('button', { name: /Switch to dark theme/ }).click();
    const dark = await readHoveredPrimaryButton('Enable proxy');
    expect(dark.color).toBe(dark.accentFg);
    expect(dark.background).not.toBe(dark.bgHover);
    expect(dark.accentFg).not.toBe(light.accentFg);
    await page.getByRole('button', { name: /Switch to light theme/ }).click();
    await page.goto(`${stack.gatewayUrl}/`);
    await page.getByRole('button', { name: /Switch to dark theme/ }).click();
    await page.locator('.list-row').first().click();
    await page.getByRole('complementary', { name: 'Exchange detail' }).waitFor();
    await screenshot('traffic-monitor-dark');
    await page.getByRole('button', { name: /Switch to light theme/ }).click();
  });

  // last: it deletes the traffic the steps above look at
  step('forgets the history counts, older pages and held rows once all traffic is deleted', async () => {
    await Promise.all(Array.from({ length: 105 }, (_, i) => sendThroughProxy(`/bulk/${i}`)));
    const deadline = Date.now() + 15_000;
    while ((await (await fetch(`${stack.gatewayUrl}/api/requests?url=%2Fbulk%2F&size=1`)).json()).totalElements < 105) {
      if (Date.now() > deadline) throw new Error('the 105 exchanges were not all logged within 15 s');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await page.goto(`${stack.gatewayUrl}/?url=%2Fbulk%2F`);
    await page.getByText('live', { exact: true }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Load older' }).waitFor();
    const footer = page.locator('.list-footer');
    await expect(footer.textContent()).resolves.toContain('in history');
    await page.getByRole('button', { name: '❚❚ Pause' }).click();
    await sendThroughProxy('/bulk/held');
    await page.getByRole('button', { name: '▶ Resume (1 new)' }).waitFor({ timeout: 15_000 });

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete all…' }).click();
    await page.locator('.list-row').first().waitFor({ state: 'detached' });
    await expect(footer.textContent()).resolves.not.toContain('in history');
    await expect(page.getByRole('button', { name: 'Load older' }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: '▶ Resume', exact: true }).click();
    await page.waitForTimeout(300);
    await expect(page.locator('.list-row').count()).resolves.toBe(0);
  });
});
