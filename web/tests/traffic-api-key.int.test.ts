import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { type RunningStack, startStack } from '@mockyard/testkit';
import { startKeylessDashboard } from './support/keyless-dashboard';
import { launchBrowser } from './support/launch-browser';
import { stepWith } from './support/step';

/**
 * The traffic read API with a key (TRAFFIC_API_KEY on the whole stack, so the logger requires it and the
 * dashboard holds it): the gateway's /api refuses calls without it while the traffic monitor shows history
 * and the live feed with no prompt. A dashboard without the key asks once from the traffic page, refuses a
 * wrong key, and then lists the traffic and follows the feed.
 */
jest.setTimeout(60_000);

const TRAFFIC_KEY = 'traffic-browser-key';
let stack: RunningStack;
let upstream: Server;
let upstreamUrl: string;
let keyless: Awaited<ReturnType<typeof startKeylessDashboard>>;
let browser: { context: BrowserContext; close: () => Promise<void> };
let page: Page;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ path: req.url }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  stack = await startStack({ TRAFFIC_API_KEY: TRAFFIC_KEY });
  keyless = await startKeylessDashboard(stack.gatewayUrl);
  browser = await launchBrowser();
  page = await browser.context.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await keyless?.stop();
  await stack?.stop();
  await new Promise((resolve) => upstream?.close(resolve));
}, 60_000);

const sendThroughProxy = async (path: string) => {
  const response = await fetch(`${stack.gatewayUrl}/proxy?url=${encodeURIComponent(`${upstreamUrl}${path}`)}`);
  expect(response.status).toBe(200);
};

const step = stepWith(() => ({ page, stack }));

describe('the dashboard with a traffic API key', () => {
  step('shows history and the live feed with no prompt when the key is held server-side, while /api refuses calls without it', async () => {
    await sendThroughProxy('/keyed/history');
    const refused = await fetch(`${stack.gatewayUrl}/api/requests`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect((await fetch(`${stack.gatewayUrl}/api/requests`, { headers: { 'x-api-key': TRAFFIC_KEY } })).status).toBe(200);

    await page.goto(`${stack.gatewayUrl}/?url=%2Fkeyed%2F`);
    await page.locator('.list-row', { hasText: '/keyed/history' }).waitFor({ timeout: 15_000 });
    await page.getByText('live', { exact: true }).waitFor({ timeout: 15_000 });
    await sendThroughProxy('/keyed/live');
    await page.locator('.list-row', { hasText: '/keyed/live' }).waitFor({ timeout: 15_000 });
    await page.locator('.list-row', { hasText: '/keyed/live' }).click();
    await page.getByRole('complementary', { name: 'Exchange detail' }).getByText('"/keyed/live"').first().waitFor();
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
  });

  step('asks for the key on the traffic page when the server holds none, refuses a wrong one, then lists and follows the traffic', async () => {
    const streamRequests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/bff/traffic/stream') streamRequests.push(request.url());
    });
    await page.goto(`${keyless.url}/?url=%2Fkeyed%2F`);
    const dialog = page.getByRole('dialog', { name: 'The dashboard needs an API key' });
    await dialog.waitFor();
    await page.getByText('The traffic API needs an API key.').waitFor();
    // EventSource cannot see the 401: the probe found it, and the feed is not retried while refused
    await page.getByText('feed needs an API key').waitFor();
    await page.waitForTimeout(4_000); // longer than the feed's 3 s reconnect delay
    expect(streamRequests).toHaveLength(1);

    await dialog.getByLabel('API key').fill('wrong-key');
    await dialog.getByRole('button', { name: 'Use this key' }).click();
    await dialog.getByRole('alert').getByText('the traffic API did not accept this API key').waitFor();
    const session = await page.evaluate(async () => (await fetch('/bff/session')).json());
    expect(session).toEqual({ serverHeldKey: false, serverHeldTrafficKey: false, sessionKey: false });

    await dialog.getByLabel('API key').fill(TRAFFIC_KEY);
    await dialog.getByRole('button', { name: 'Use this key' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.locator('.list-row', { hasText: '/keyed/history' }).waitFor({ timeout: 15_000 });
    await page.locator('.list-row', { hasText: '/keyed/live' }).waitFor();
    await page.getByText('live', { exact: true }).waitFor({ timeout: 15_000 });
    await sendThroughProxy('/keyed/after-prompt');
    await page.locator('.list-row', { hasText: '/keyed/after-prompt' }).waitFor({ timeout: 15_000 });
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);

    const visibleToScripts = await page.evaluate(() => JSON.stringify({ cookie: document.cookie, local: { ...localStorage }, session: { ...sessionStorage } }));
    expect(visibleToScripts).not.toContain(TRAFFIC_KEY);
    const harHref = await page.getByRole('link', { name: 'Export HAR' }).getAttribute('href');
    expect(harHref).toMatch(/^\/bff\/traffic\/exchanges\/har\?/);
    const har = await page.evaluate(async (href) => (await fetch(href!)).json(), harHref);
    expect(har.log.entries.some((entry: { request: { url: string } }) => entry.request.url.includes('/keyed/after-prompt'))).toBe(true);
  });
});
