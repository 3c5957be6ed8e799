/** Shared by the admin UI tests that drive Chromium (test/http/admin/*): start, log in, submit, measure. */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { TestHub } from './hub.js';

/** Where screenshots go (gitignored); a file creates it with mkdirSync before its first shot. */
export const ARTIFACTS = join(process.cwd(), 'test-artifacts');

/** Generous: CI runs the suite on two busy cores. */
export const POLL = { timeout: 15_000 };

/** The browser context of a 390-px phone. */
export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true };

/**
 * Sets the hub's clock to the wall's time and starts it on free ports; returns its HTTP origin with
 * `localhost` for 127.0.0.1, and its MQTT URL if it runs the broker.
 */
export async function startForBrowser(hub: TestHub): Promise<{ origin: string; mqtt?: string }> {
  hub.clock.set(Date.now() / 1000);
  const addr = await hub.start();
  return { origin: addr.http!.replace('127.0.0.1', 'localhost'), mqtt: addr.mqtt };
}

/**
 * Runs an action that submits a form and waits for the next document to commit and load. A form
 * that comes back to the same URL (the login form in place, an edit) would satisfy waitForURL at
 * once, and the old page's layout would be measured.
 */
export async function submit(page: Page, act: () => Promise<unknown>) {
  await Promise.all([page.waitForEvent('framenavigated', (f) => f === page.mainFrame()), act()]);
  await page.waitForLoadState('load');
}

/** Opens `url` (which shows the admin login form), types `token` and submits it. */
export async function logInAt(page: Page, url: string, token: string) {
  await page.goto(url);
  await page.fill('input[name=token]', token);
  await submit(page, () => page.click('button[type=submit]'));
}

/** The visible elements matching `selector` less than 40 px tall (too small to tap), as HTML snippets with heights. */
export function smallTouchTargets(page: Page, selector: string) {
  return page.evaluate(
    (sel) =>
      [...document.querySelectorAll(sel)]
        .filter((el) => (el as HTMLElement).offsetParent !== null)
        .map((el) => ({ el: el.outerHTML.slice(0, 80), h: el.getBoundingClientRect().height }))
        .filter((x) => x.h < 40),
    selector,
  );
}
