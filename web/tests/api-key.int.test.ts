import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { type RunningStack, startStack } from '@mockyard/testkit';
import { startKeylessDashboard } from './support/keyless-dashboard';
import { launchBrowser } from './support/launch-browser';
import { prepareScreenshotDir } from './support/screenshot-dir';

/**
 * A hub with an API key: the dashboard holding the key server-side works with no prompt; a dashboard
 * without it asks once, keeps the key in an HttpOnly cookie (not in browser storage) and then works.
 */
jest.setTimeout(60_000);

const API_KEY = 'browser-test-key';
let stack: RunningStack;
let keyless: Awaited<ReturnType<typeof startKeylessDashboard>>;
let browser: { context: BrowserContext; close: () => Promise<void> };
let page: Page;

beforeAll(async () => {
  stack = await startStack({ HUB_API_KEY: API_KEY });
  keyless = await startKeylessDashboard(stack.gatewayUrl);
  browser = await launchBrowser();
  page = await browser.context.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await keyless?.stop();
  await stack?.stop();
}, 60_000);

describe('the dashboard with a hub API key', () => {
  it('works with no prompt when the key is held server-side (HUB_API_KEY), while the hub refuses calls without it', async () => {
    expect((await fetch(`${stack.gatewayUrl}/hub/admin/registry/servers`)).status).toBe(401);
    await page.goto(`${stack.gatewayUrl}/engines`);
    await page.locator('.tile', { hasText: 'local' }).waitFor();
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
  });

  it('asks once for the key when the server holds none, keeps it out of page scripts and storage, then works', async () => {
    await page.goto(`${keyless.url}/engines`);
    const dialog = page.getByRole('dialog', { name: 'The dashboard needs an API key' });
    await dialog.waitFor();
    await page.getByText('The hub needs an API key.').first().waitFor();

    await page.screenshot({ path: join(prepareScreenshotDir(), 'api-key-prompt.png') });
    await dialog.getByLabel('API key').fill('wrong-key');
    await dialog.getByRole('button', { name: 'Use this key' }).click();
    // a wrong key is refused on the spot: the dialog stays, says so, and keeps what was typed
    await dialog.getByRole('alert').getByText('the hub did not accept this API key').waitFor();
    await expect(dialog.getByLabel('API key').inputValue()).resolves.toBe('wrong-key');

    await dialog.getByLabel('API key').fill(API_KEY);
    await dialog.getByRole('button', { name: 'Use this key' }).click();
    await page.locator('.tile', { hasText: 'local' }).waitFor();
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);

    const visibleToScripts = await page.evaluate(() => JSON.stringify({ cookie: document.cookie, local: { ...localStorage }, session: { ...sessionStorage } }));
    expect(visibleToScripts).not.toContain(API_KEY);

    await page.reload();
    await page.locator('.tile', { hasText: 'local' }).waitFor();
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
  });
});
