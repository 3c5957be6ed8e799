/**
 * The window in Chromium (issue 34 item 7 and the Ask box), at 390 and 1280 px: a person's six facts
 * are compact rows (a phone shows them in one screen, not four), a garage door's page draws its week
 * as day rows with visible bands and lists its readings in rows of at most two lines, the graph fits
 * its box on load with every label inside, the dashboard's Ask box answers in place (htmx) with what
 * POST /ask says, no page scrolls sideways and none logs a console error. Screenshots of each go to
 * test-artifacts/ (look at them when the layout changes).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocateInput } from '../../../src/tiers/spatial/spatial.schemas.js';
import { ARTIFACTS, logInAt, PHONE, POLL, startForBrowser } from '../../helpers/admin-ui.js';
import { launchChromium } from '../../helpers/chromium.js';
import { buildTestHub, post, rememberByHand, type TestHub } from '../../helpers/hub.js';
import { closeInOrder } from '../../helpers/teardown.js';
import { TOKEN } from './helpers.js';

let hub: TestHub;
let browser: Browser;
let origin: string;
const bearer = { authorization: `Bearer ${TOKEN}` };
const FACTS = [
  'Brian takes his coffee black, no sugar',
  'Brian keeps the bedroom at 18 °C at night',
  'Brian works from home on Mondays and Fridays',
  'Brian is allergic to penicillin',
  'Brian plays five-a-side football on Thursday evenings',
  'Brian’s birthday is on 14 March',
];

beforeAll(async () => {
  hub = await buildTestHub({ config: { http: { token: TOKEN } } });
  origin = (await startForBrowser(hub)).origin;
  const s = hub.services;
  for (const fact of FACTS)
    await rememberByHand(hub, 'Brian', fact, { category: 'preference', entity_type: 'person' }, 'http');
  const now = hub.clock.now();
  const day0 = now - (now % 86_400);
  const door: Record<string, unknown>[] = [];
  for (let d = 6; d >= 0; d--)
    for (const [at, minutes] of [
      [7.5, 4],
      [18, 20],
    ]) {
      const ts = day0 - d * 86_400 + at * 3600;
      if (ts + minutes * 60 >= now) continue;
      door.push({ entity_name: 'garage_door', metric: 'contact', value: false, ts });
      door.push({ entity_name: 'garage_door', metric: 'contact', value: true, ts: ts + minutes * 60 });
    }
  expect((await post(hub, '/record/bulk', { readings: door }, bearer)).status).toBe(200);
  const rel = (entity_a: string, entity_b: string, rel_type: string, entity_b_type?: string) =>
    s.relations.relate({ entity_a, entity_b, rel_type, entity_b_type } as never);
  rel('Anna', 'Brian', 'spouse_of');
  rel('Mia', 'Anna', 'child_of');
  rel('Mia', 'Brian', 'child_of');
  rel('Brian', 'Rex', 'owns');
  rel('Brian', 'bedroom', 'sleeps_in', 'room');
  rel('Anna', 'bedroom', 'sleeps_in');
  rel('Mia', 'kids room', 'sleeps_in', 'room');
  rel('Anna', 'kitchen', 'cooks_in', 'room');
  rel('Rex', 'living room', 'sleeps_in', 'room');
  for (const [entity_name, container_name] of [
    ['car keys', 'hall drawer'],
    ['spare key', 'hall drawer'],
    ['hall drawer', 'hallway'],
    ['passport', 'blue box'],
    ['blue box', 'study'],
    ['reading glasses', 'living room'],
    ['Rex’s lead with the long name', 'hallway'],
  ])
    s.spatial.locate(LocateInput.parse({ entity_name, container_name }), 'http');
  browser = await launchChromium();
}, 60_000);
afterAll(() => closeInOrder(browser, hub));

const sizes = [
  ['phone', PHONE],
  ['laptop', { viewport: { width: 1280, height: 800 } }],
] as const;

/** Console errors and warnings, uncaught errors and dialogs of a page. */
function listen(page: Page): string[] {
  const said: string[] = [];
  page.on('console', (m) => (m.type() === 'error' || m.type() === 'warning') && said.push(m.text()));
  page.on('pageerror', (e) => said.push(e.message));
  page.on('dialog', (d) => (said.push(`dialog: ${d.message()}`), void d.dismiss()));
  return said;
}
const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
const shot = (page: Page, name: string) => {
  mkdirSync(ARTIFACTS, { recursive: true });
  return page.screenshot({ path: join(ARTIFACTS, `window-${name}.png`), fullPage: true });
};

describe.each(sizes)('the window at %s size', (label, options) => {
  let page: Page;
  let said: string[];
  beforeAll(async () => {
    const ctx = await browser.newContext({ ...options, locale: 'en-GB' });
    page = await ctx.newPage();
    await logInAt(page, `${origin}/admin/`, TOKEN); // (the login form in place answers 401 by design)
    said = listen(page);
  }, 60_000);
  afterAll(async () => page?.context().close());

  it("a person's six facts are compact rows: on a phone all six in one screen", async () => {
    await page.goto(`${origin}/admin/entity/Brian`);
    const rows = page.locator('table.memories tbody tr');
    expect(await rows.count()).toBe(6);
    const heights = await rows.evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().height));
    const total = heights.reduce((a, b) => a + b, 0);
    if (label === 'phone') {
      for (const h of heights) expect(h).toBeLessThanOrEqual(150);
      expect(total).toBeLessThanOrEqual(844);
    } else expect(total).toBeLessThanOrEqual(6 * 110);
    // Every action is still there and tappable.
    expect(await rows.first().locator('button[data-action=confirm]').boundingBox()).toMatchObject({
      height: expect.any(Number),
    });
    expect((await rows.first().locator('button[data-action=confirm]').boundingBox())!.height).toBeGreaterThanOrEqual(
      40,
    );
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await shot(page, `${label}-person`);
  });

  it("a garage door's week: seven day rows with its openings as bands; its readings in short rows, newest first", async () => {
    await page.goto(`${origin}/admin/entity/garage_door`);
    const days = page.locator('figure.timeline svg.bands');
    expect(await days.count()).toBe(7);
    const widths = await days.evaluateAll((svgs) => svgs.map((s) => s.getBoundingClientRect().width));
    for (const w of widths) expect(w).toBeGreaterThanOrEqual(label === 'phone' ? 200 : 600);
    const bands = await page
      .locator('figure.timeline rect.on')
      .evaluateAll((rs) => rs.map((r) => r.getBoundingClientRect().width));
    expect(bands.length).toBeGreaterThanOrEqual(10);
    for (const w of bands) expect(w).toBeGreaterThanOrEqual(1);
    const items = page.locator('ol.reading-list li');
    expect(await items.count()).toBe(20);
    const h = await items.evaluateAll((lis) => lis.map((li) => li.getBoundingClientRect().height));
    for (const x of h) expect(x).toBeLessThanOrEqual(60);
    const times = await items
      .locator('time')
      .evaluateAll((ts) => ts.map((t) => Date.parse(t.getAttribute('datetime')!)));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await shot(page, `${label}-garage-door`);
  });

  it('the graph fits its box on load: every entity and its label inside, the box inside the screen', async () => {
    await page.goto(`${origin}/graph`);
    await page.waitForSelector('#graph[data-ready]', POLL);
    const fit = await page.evaluate(() => {
      const el = document.getElementById('graph')!;
      const cy = (
        window as unknown as {
          hearthGraph: {
            nodes(): {
              data(k: string): string;
              renderedBoundingBox(o: object): { x1: number; x2: number; y1: number; y2: number };
            }[];
            zoom(): number;
          };
        }
      ).hearthGraph;
      const out = cy
        .nodes()
        .map((n) => ({ label: n.data('label'), b: n.renderedBoundingBox({ includeLabels: true }) }))
        .filter(({ b }) => b.x1 < -1 || b.y1 < -1 || b.x2 > el.clientWidth + 1 || b.y2 > el.clientHeight + 1);
      return { outside: out.map((o) => o.label), height: el.clientHeight, zoom: cy.zoom(), n: cy.nodes().length };
    });
    expect(fit.n).toBeGreaterThanOrEqual(18);
    expect(fit.outside).toEqual([]);
    expect(fit.height).toBeLessThanOrEqual(page.viewportSize()!.height);
    await page.locator('#graph').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, `window-${label}-graph.png`) });
  });

  it('the Ask box answers in place with what POST /ask says, and what it rests on', async () => {
    const question = 'Was the garage door open this morning?';
    const api = (await post(hub, '/ask', { question }, bearer)).body;
    await page.goto(`${origin}/admin/`);
    await page.fill('section.ask input[name=question]', question);
    const url = page.url();
    await page.click('section.ask button[data-action=ask]');
    await expect.poll(() => page.locator('#ask-answer p.said').count(), POLL).toBe(1);
    expect(page.url()).toBe(url); // in place: no navigation
    expect((await page.locator('#ask-answer p.said').innerText()).replace(/\s*not sure$/, '')).toBe(api.result);
    expect(await page.locator('#ask-answer .evidence li').count()).toBe(api.evidence.length);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await shot(page, `${label}-ask`);
  });

  it('search shows no confidence on every hit; every page so far said nothing to the console', async () => {
    await page.goto(`${origin}/admin/search?q=coffee`);
    expect(await page.locator('#sure').innerText()).toContain('Brian takes his coffee black');
    expect(await page.locator('main').innerText()).not.toMatch(/Confidence|100\s?%/);
    await shot(page, `${label}-search`);
    expect(said).toEqual([]);
  });
});
