/**
 * Entity management in a real browser (issue #29 item 2): Chromium via playwright-core against a real
 * hub on a free port, at 390 and 1280 px. Merge with a preview then confirm, rename, change type, end
 * a relation, delete with a confirm page — each checked through the API afterwards; a hostile name
 * and fact show as text; the dashboard's recent changes are words; no console errors, no sideways
 * scroll. Screenshots go to test-artifacts/ (gitignored).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../helpers/chromium.js';
import { closeInOrder } from '../../helpers/teardown.js';
import { ARTIFACTS, logInAt, smallTouchTargets, startForBrowser, submit } from '../../helpers/admin-ui.js';
import { buildTestHub, type TestHub } from '../../helpers/hub.js';
import { TOKEN } from './helpers.js';

let hub: TestHub;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  hub = await buildTestHub({ config: { http: { token: TOKEN } } });
  origin = (await startForBrowser(hub)).origin;
  browser = await launchChromium();
}, 60_000);
afterAll(() => closeInOrder(browser, hub));

const bearer = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const api = async (path: string, body?: unknown) =>
  (
    await fetch(
      `${origin}${path}`,
      body === undefined ? { headers: bearer } : { method: 'POST', headers: bearer, body: JSON.stringify(body) },
    )
  ).json() as Promise<Record<string, any>>;
const entities = async () => (await api('/entities')).entities as { name: string; type: string }[];

interface Watch {
  dialogs: string[];
  errors: string[];
}
function watch(page: Page): Watch {
  const w: Watch = { dialogs: [], errors: [] };
  page.on('dialog', (d) => (w.dialogs.push(d.message()), void d.dismiss()));
  page.on('pageerror', (e) => w.errors.push(e.message));
  page.on('console', (m) => {
    if ((m.type() === 'error' || m.type() === 'warning') && !/status of 401/.test(m.text()))
      w.errors.push(`${page.url()}: ${m.text()}`);
  });
  return w;
}

/** Nothing wider than the viewport; the new controls at least 40 px tall. */
async function checkLayout(page: Page, name: string, width: number) {
  await page.screenshot({ path: join(ARTIFACTS, `manage-${name.replace(/\W+/g, '-')}.png`), fullPage: true });
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(wide, `${name}: page scrolls sideways`).toBeLessThanOrEqual(width);
  const small = await smallTouchTargets(
    page,
    '#manage button, #manage .button, #manage summary, #manage input:not([type=hidden]), #manage select, #relations button, main form button',
  );
  expect(small, `${name}: touch targets under 40 px`).toEqual([]);
}

const flash = (page: Page) => page.locator('#flash').textContent();
const entityUrl = (name: string) => `${origin}/admin/entity/${encodeURIComponent(name)}`;

async function flow(label: string, width: number, height: number) {
  const ctx = await browser.newContext({ viewport: { width, height } });
  const page = await ctx.newPage();
  const w = watch(page);
  const [bryan, brian, rex, anna, mallory] = [
    'Bryan',
    'Brian',
    'Rex',
    'Anna',
    `<img src=x onerror="alert(1)">Mallory's <script>alert('pwned')</script>`,
  ].map((n) => `${n} ${label}`);
  await api('/remember', { entity_name: brian, fact: `${brian} likes strong coffee`, entity_type: 'person' });
  await api('/remember', { entity_name: bryan, fact: `${bryan} plays the trumpet on Sundays` });
  await api('/relate', { entity_a: bryan, entity_b: rex, rel_type: 'owns' });
  await api('/relate', { entity_a: anna, entity_b: rex, rel_type: 'walks' });
  await api('/remember', { entity_name: mallory, fact: `fact <b>bold</b> <script>alert('fact')</script> ${label}` });

  await logInAt(page, `${origin}/admin/login?next=${encodeURIComponent('/admin/')}`, TOKEN);

  // Merge: choose the other, see what moves, confirm.
  await page.goto(entityUrl(bryan));
  await checkLayout(page, `${label} entity`, width);
  await page.locator('#manage summary', { hasText: 'Merge with another entity' }).click();
  await page.fill('#manage input[name=other]', brian);
  await page.selectOption('#manage select[name=keep]', 'other');
  await submit(page, () => page.click('button[data-action=merge-preview]'));
  expect(await page.locator('h1').textContent()).toBe(`Merge ${bryan} into ${brian}?`);
  expect(await page.locator('ul.facts li').allTextContents()).toEqual([`${bryan} plays the trumpet on Sundays`]);
  expect(await page.locator('main').textContent()).toContain(`${bryan} owns ${rex}`);
  await checkLayout(page, `${label} merge preview`, width);
  expect((await entities()).map((e) => e.name)).toContain(bryan); // a preview changes nothing
  await submit(page, () => page.click('button[data-action=merge]'));
  expect(decodeURIComponent(page.url())).toBe(`${origin}/admin/entity/${brian}`);
  expect(await flash(page)).toContain(`“${bryan}” is now another name of ${brian}`);
  expect((await entities()).map((e) => e.name)).not.toContain(bryan);
  const recall = await api('/recall', { query: 'trumpet on Sundays', entity_name: brian });
  expect(recall.results.map((r: { entity_name: string }) => r.entity_name)).toEqual([brian]);

  // Rename, then change the type.
  await page.goto(entityUrl(rex));
  await page.locator('#manage summary', { hasText: 'Rename' }).click();
  await page.fill('#manage input[name=new_name]', `Rexy ${label}`);
  await submit(page, () => page.click('button[data-action=rename]'));
  expect(await flash(page)).toBe(`Renamed ${rex} to Rexy ${label}. To undo, rename it back below.`);
  expect((await entities()).map((e) => e.name)).toEqual(expect.arrayContaining([`Rexy ${label}`]));
  await page.locator('#manage summary', { hasText: 'Change type' }).click();
  await page.fill('#manage input[name=type]', 'pet');
  await submit(page, () => page.click('button[data-action=set-type]'));
  expect((await entities()).find((e) => e.name === `Rexy ${label}`)?.type).toBe('pet');
  await checkLayout(page, `${label} renamed`, width);

  // End a relation from Anna's page.
  await page.goto(entityUrl(anna));
  await submit(page, () => page.locator('#relations button[data-action=end-relation]').click());
  expect(await flash(page)).toBe(`Ended: ${anna} walks Rexy ${label} (kept in the history below).`);
  expect((await api('/get_related', { entity_name: anna })).relations).toEqual([]);
  expect(await page.locator('#relations tr.ended').count()).toBe(1);

  // Delete the hostile entity: its name and fact are text on the confirm page.
  await page.goto(entityUrl(mallory));
  expect(await page.locator('h1').textContent()).toBe(mallory);
  await submit(page, () => page.click('a[data-action=delete-preview]'));
  expect(await page.locator('h1').textContent()).toBe(`Delete ${mallory}?`);
  expect(await page.locator('ul.facts li').allTextContents()).toEqual([
    `fact <b>bold</b> <script>alert('fact')</script> ${label}`,
  ]);
  await checkLayout(page, `${label} delete confirm`, width);
  await submit(page, () => page.click('button[data-action=delete]'));
  expect(page.url()).toBe(`${origin}/admin/entities`);
  expect(await flash(page)).toBe(`Deleted ${mallory} with 1 fact`);
  expect((await entities()).map((e) => e.name)).not.toContain(mallory);

  // The dashboard says what changed, in words.
  await page.goto(`${origin}/admin/`);
  const recent = (await page.locator('section', { hasText: 'Recent changes' }).textContent()) ?? '';
  expect(recent).toContain(`Forgot everything about ${mallory}`);
  expect(recent).toContain(`Ended ${anna} → walks → Rexy ${label}`);
  expect(recent).toContain(`Changed the type of Rexy ${label}: unknown → pet`);
  expect(recent).toContain(`Renamed ${rex} to Rexy ${label}`);
  expect(recent).toContain('you (admin page)');
  expect(recent).not.toMatch(/\(admin\)|\| \d+/);
  await checkLayout(page, `${label} dashboard`, width);

  expect(w.dialogs, 'a dialog opened: something executed').toEqual([]);
  expect(w.errors, 'console errors').toEqual([]);
  await ctx.close();
}

describe('entity management in Chromium', () => {
  it('at 1280 px', async () => {
    await flow('desktop', 1280, 800);
  }, 120_000);
  it('at 390 px (a phone)', async () => {
    await flow('phone', 390, 844);
  }, 120_000);
});
