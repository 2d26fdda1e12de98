import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '@mockyard/testkit';
import { launchBrowser } from './support/launch-browser';

/**
 * The built dashboard (standalone server, as deployed) over HTTP: security headers on pages, route handlers
 * and static files; a fresh CSP nonce per page that every script carries; a script without it is blocked
 * while the page still hydrates; cross-site state-changing calls are refused.
 */
jest.setTimeout(60_000);

const server = join(__dirname, '..', '.next', 'standalone', 'web', 'server.js');
let web: ChildProcess;
let webUrl: string;

beforeAll(async () => {
  if (!existsSync(server)) throw new Error('web is not built: run npm run build first');
  const port = await freePort();
  const { HUB_API_KEY: _key, ...env } = process.env;
  // No upstream: the pages render (their data calls fail and say so), which is all these tests need.
  web = spawn(process.execPath, [server], {
    env: { ...env, PORT: String(port), HOSTNAME: '127.0.0.1', GATEWAY_URL: 'http://127.0.0.1:9', ALLOWED_HOSTS: 'dash.team.example', NEXT_TELEMETRY_DISABLED: '1' },
    stdio: 'ignore',
  });
  webUrl = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      if ((await fetch(`${webUrl}/bff/session`)).ok) break;
    } catch {
      if (attempt > 150) throw new Error('the dashboard did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
});

afterAll(async () => {
  if (web && web.exitCode === null) {
    const exited = new Promise((resolve) => web.once('exit', resolve));
    web.kill('SIGTERM');
    await exited;
  }
});

const nonceOf = (csp: string | null) => /'nonce-([^']+)'/.exec(csp ?? '')?.[1];

describe('security headers of the built dashboard', () => {
  it.each(['/', '/stubs', '/engines', '/bff/session', '/no-such-page'])('%s: nosniff, no framing, no referrer, a permissions policy and a CSP', async (path) => {
    const res = await fetch(`${webUrl}${path}`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('permissions-policy')).toContain('camera=()');
    const csp = res.headers.get('content-security-policy');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'(;|$)/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-(inline|eval)/);
  });

  it('puts the response nonce on every script of the page, and a new one on every request', async () => {
    const [first, second] = await Promise.all([fetch(`${webUrl}/`), fetch(`${webUrl}/`)]);
    const nonce = nonceOf(first.headers.get('content-security-policy'));
    expect(nonce).toBeDefined();
    expect(nonceOf(second.headers.get('content-security-policy'))).not.toBe(nonce);
    const html = await first.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(1);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it('sends nosniff with static files too', async () => {
    const html = await (await fetch(`${webUrl}/`)).text();
    const asset = /src="(\/_next\/static\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const res = await fetch(`${webUrl}${asset}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('state-changing calls from other sites', () => {
  it.each([
    ['another origin', { origin: 'http://evil.test', 'content-type': 'application/json' }, '{"apiKey":"x"}'],
    ['a cross-site fetch', { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' }, '{"apiKey":"x"}'],
    ['a form post (no CORS preflight)', { 'content-type': 'application/x-www-form-urlencoded' }, 'apiKey=x'],
  ])('refuses %s with 403 problem+json', async (_what, headers, body) => {
    for (const path of ['/bff/session', '/bff/hub/admin/mappings']) {
      const res = await fetch(`${webUrl}${path}`, { method: 'POST', headers, body });
      expect([path, res.status]).toEqual([path, 403]);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.headers.get('set-cookie')).toBeNull();
    }
  });
});

describe('the Host header (DNS rebinding)', () => {
  /** A GET naming `host` in its Host header (fetch cannot set it). */
  const get = (path: string, host: string) =>
    new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      http
        .get(`${webUrl}${path}`, { headers: { Host: host } }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body }));
        })
        .on('error', reject);
    });

  it.each(['/', '/bff/session', '/bff/traffic/requests'])('refuses %s named as another site with 403 problem+json naming the host and ALLOWED_HOSTS', async (path) => {
    const res = await get(path, 'rebound.evil.example:3000');
    expect(res.status).toBe(403);
    expect(res.type).toContain('application/problem+json');
    expect(JSON.parse(res.body)).toMatchObject({ status: 403, title: 'Forbidden', detail: expect.stringContaining('"rebound.evil.example:3000"') });
    expect(JSON.parse(res.body).detail).toContain('add it to ALLOWED_HOSTS');
  });

  it.each(['localhost:3000', '127.0.0.1', 'web:3000', 'dash.team.example'])('answers a page named as %s', async (host) => {
    expect((await get('/bff/session', host)).status).toBe(200);
  });
});

describe('the dashboard in a browser under its CSP', () => {
  it('runs its own scripts (theme script, hydration) and blocks an injected one', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.context.newPage();
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await page.emulateMedia({ colorScheme: 'light' });
      await page.goto(`${webUrl}/`);
      // the inline theme script ran (it carries the nonce)
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
      // the page hydrated: a React click handler works
      await page.getByRole('button', { name: 'Switch to dark theme' }).click();
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      expect(violations).toEqual([]);
      // markup injected into the page (what an XSS would add) carries no nonce: it does not run
      await page.route(`${webUrl}/unmatched`, async (route) => {
        const original = await route.fetch();
        const html = (await original.text()).replace('<body>', '<body><script>window.__injected = true</script><img src="x" onerror="window.__injected = true">');
        await route.fulfill({ response: original, body: html });
      });
      await page.goto(`${webUrl}/unmatched`);
      await page.getByRole('button', { name: /Switch to (dark|light) theme/ }).waitFor();
      expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
      expect(violations.length).toBeGreaterThan(0);
    } finally {
      await browser.close();
    }
  });
});
