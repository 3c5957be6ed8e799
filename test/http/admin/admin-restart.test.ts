/**
 * In Chromium: a page left open across a hub restart still saves the correction typed into it; a
 * stale form or an ended login shows the typed text again (with a link back) instead of an error;
 * the in-place actions' banner says what happened in plain words.
 */
import { rmSync } from 'node:fs';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium } from '../../helpers/chromium.js';
import { POLL, logInAt, submit } from '../../helpers/admin-ui.js';
import { closeInOrder } from '../../helpers/teardown.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, rememberByHand, tempDir, type TestHub } from '../../helpers/hub.js';
import { TOKEN } from './helpers.js';

const dir = tempDir();
let hub: TestHub;
let browser: Browser;
let origin: string;
let port: number;

const start = async (p = 0) => {
  hub = await buildTestHub({ dir, config: { http: { token: TOKEN, port: p } } });
  const addr = await hub.start();
  return new URL(addr.http!);
};

beforeAll(async () => {
  const url = await start();
  port = Number(url.port);
  origin = `http://localhost:${port}`;
  for (const fact of ['Brian keeps the bedroom at 68°F at night', 'Brian played squash on Tuesdays']) {
    await rememberByHand(hub, 'Brian', fact, { category: 'preference', entity_type: 'person' }, 'http');
  }
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await closeInOrder(browser, hub);
  rmSync(dir, { recursive: true, force: true });
});

const row = (page: Page, text: string) => page.locator('tr', { has: page.locator('td.fact', { hasText: text }) });
async function typeEdit(page: Page, from: string, to: string) {
  const r = row(page, from);
  await r.locator('summary', { hasText: 'Edit' }).click();
  await r.locator('textarea[name=fact]').fill(to);
  return r.locator('button[data-action=edit]');
}

describe('a page left open across a restart', () => {
  it('keeps the session; stale forms and ended logins give the typed text back; the banner is plain words', async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    try {
      await logInAt(page, `${origin}/admin/entity/Brian`, TOKEN);
      expect(page.url()).toBe(`${origin}/admin/entity/Brian`);

      // Typed, then the hub restarts, then Save: the correction is kept.
      const save = await typeEdit(page, '68°F', 'Brian keeps the bedroom at 66°F at night');
      await hub.close();
      await start(port);
      await submit(page, () => save.click());
      expect(page.url()).toBe(`${origin}/admin/entity/Brian`);
      await expect.poll(() => page.locator('td.fact', { hasText: '66°F' }).count(), POLL).toBe(1);
      expect(await page.locator('.flash').textContent()).toBe('Saved: Brian keeps the bedroom at 66°F at night');

      // A stale form (its token no longer matches): the text comes back, with a way home.
      const stale = await typeEdit(page, '66°F', 'Brian keeps the bedroom at 65°F at night');
      await page.evaluate(() =>
        document.querySelectorAll<HTMLInputElement>('input[name=_csrf]').forEach((i) => (i.value = 'from-an-old-page')),
      );
      await submit(page, () => stale.click());
      expect(await page.locator('h1').textContent()).toBe('Send your change again');
      expect(await page.locator('textarea[name=fact]').inputValue()).toBe('Brian keeps the bedroom at 65°F at night');
      expect(await page.locator('a', { hasText: 'Back to the page you came from' }).getAttribute('href')).toBe(
        '/admin/entity/Brian',
      );
      await submit(page, () => page.click('button[data-action=resend]'));
      await expect.poll(() => page.locator('td.fact', { hasText: '65°F' }).count(), POLL).toBe(1);

      // The login ended (cookie gone): in-place Forget says so in words, not "401 {…}".
      await ctx.clearCookies();
      const squash = row(page, 'squash');
      await squash.locator('summary', { hasText: 'Forget' }).click();
      await squash.locator('button[data-action=forget]').click();
      await expect.poll(() => page.locator('#toast').textContent(), POLL).toMatch(/^Your login has ended/);
      expect(await page.locator('#toast').textContent()).not.toMatch(/\d{3}|[{}]|_csrf/);

      // …and an edit goes through the login form, then comes back with the text.
      const later = await typeEdit(page, '65°F', 'Brian keeps the bedroom at 64°F at night');
      await submit(page, () => later.click());
      await page.fill('input[name=token]', TOKEN);
      await submit(page, () => page.click('button[type=submit]'));
      expect(await page.locator('h1').textContent()).toBe('Logged in: send your change again');
      expect(await page.locator('textarea[name=fact]').inputValue()).toBe('Brian keeps the bedroom at 64°F at night');
      await submit(page, () => page.click('button[data-action=resend]'));
      expect(page.url()).toBe(`${origin}/admin/entity/Brian`);
      await expect.poll(() => page.locator('td.fact', { hasText: '64°F' }).count(), POLL).toBe(1);
    } finally {
      await ctx.close();
    }
  }, 90_000);
});
