/**
 * Issue #26 item 4, in Chromium: a page on another site makes the household's browser load
 * `/mcp?token=x` 31 times (images) and post 11 wrong tokens to the admin login form (no-cors fetch).
 * Both are refused before the failed-login limiter counts them (src/http/auth.ts, admin/guard.ts),
 * so the household's own address — the same one — is not locked out.
 */
import { type Browser } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { closeInOrder } from '../helpers/teardown.js';
import { startOtherSite, type OtherSite } from '../helpers/other-site.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, type TestHub } from '../helpers/hub.js';

const TOKEN = 'budget-test-token-0123456789';
let hub: TestHub;
let browser: Browser;
let evil: OtherSite;
let hubUrl: string;

beforeAll(async () => {
  hub = await buildTestHub({ config: { http: { token: TOKEN }, mqtt: { mode: 'off' } } });
  hubUrl = (await hub.start()).http!;
  evil = await startOtherSite(
    `<!doctype html><body><script>
      const hub = ${JSON.stringify(hubUrl)};
      for (let i = 0; i < 31; i++) { const img = new Image(); img.src = hub + '/mcp?token=guess' + i; document.body.append(img); }
      for (let i = 0; i < 11; i++) fetch(hub + '/admin/login', { method: 'POST', mode: 'no-cors', body: new URLSearchParams({ token: 'guess' + i }) });
    </script>`,
  );
  browser = await launchChromium();
}, 60_000);
afterAll(() => closeInOrder(browser, evil, hub));

describe('a page on another site and the failed-login budget', () => {
  it('cannot lock the household out with URL tokens or cross-site logins', async () => {
    const page = await browser.newPage();
    // The browser hides the answers from the page (ORB, CORP same-origin), but each one means the
    // request reached the hub and was answered.
    const answered: string[] = [];
    page.on('response', (r) => r.url().startsWith(hubUrl) && answered.push(String(r.status())));
    page.on('requestfailed', (r) => r.url().startsWith(hubUrl) && answered.push(r.failure()?.errorText ?? ''));
    await page.goto(evil.url);
    await expect.poll(() => answered.length, { timeout: 15_000 }).toBe(42);
    await page.close();
    expect(
      answered.every((a) => /^net::ERR_BLOCKED_BY_(ORB|RESPONSE)|^403$/.test(a)),
      answered.join(),
    ).toBe(true);
    // The same address (127.0.0.1), a script and the login form: let in.
    expect((await fetch(`${hubUrl}/entities`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    const login = await fetch(`${hubUrl}/admin/login`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ token: TOKEN, next: '/admin/' }),
    });
    expect(login.status).toBe(303);
  }, 60_000);
});
