/**
 * Fit and finish in Chromium (issue #29 item 5), at 390 and 1280 px against a hub with a token: the
 * header is one short row with a menu on a phone and the whole nav on a laptop; the icons load
 * before login (no 401 but the login page's own); a sensor's page has only the sections that apply;
 * its chart uses the width; <time> is in the browser's locale; live readings say "… ago"; and no admin
 * page logs a console error or warning.
 */
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../helpers/chromium.js';
import { POLL, startForBrowser } from '../../helpers/admin-ui.js';
import { closeInOrder } from '../../helpers/teardown.js';
import { buildTestHub, rememberByHand, type TestHub } from '../../helpers/hub.js';
import { TOKEN } from './helpers.js';

let hub: TestHub;
let browser: Browser;
let origin: string;
const PAGES = [
  '/admin/',
  '/admin/entities',
  '/admin/entity/Brian',
  '/admin/entity/sensor.kitchen_temperature',
  '/admin/readings',
  '/graph',
  '/admin/prune',
];

beforeAll(async () => {
  hub = await buildTestHub({ config: { http: { token: TOKEN } } });
  origin = (await startForBrowser(hub)).origin;
  const s = hub.services;
  await rememberByHand(
    hub,
    'Brian',
    'Brian takes his coffee black',
    { category: 'preference', entity_type: 'person' },
    'http',
  );
  const now = hub.clock.now();
  await s.timeseries.recordBulk({
    readings: Array.from({ length: 24 }, (_, i) => ({
      entity_name: 'sensor.kitchen_temperature',
      metric: 'temperature',
      value: 20 + Math.sin(i / 3),
      unit: '°C',
      source: 'api',
      ts: now - (24 - i) * 1800,
    })),
  });
  browser = await launchChromium();
}, 60_000);
afterAll(() => closeInOrder(browser, hub));

interface Seen {
  said: string[];
  statuses: { url: string; status: number }[];
}
function listen(page: Page): Seen {
  const seen: Seen = { said: [], statuses: [] };
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') seen.said.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => seen.said.push(`${page.url()}: ${e.message}`));
  page.on('response', (r) => seen.statuses.push({ url: r.url(), status: r.status() }));
  return seen;
}

async function logIn(page: Page) {
  await page.goto(`${origin}/admin/`);
  await page.fill('input[name=token]', TOKEN);
  // The login form is shown in place at /admin/, so the URL matches before the click: wait for the
  // dashboard's document, then its load.
  await Promise.all([
    page.waitForURL(`${origin}/admin/`, { waitUntil: 'domcontentloaded' }),
    page.click('button[type=submit]'),
  ]);
  await page.waitForLoadState('load');
}

const phone = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  locale: 'de-DE',
  timezoneId: 'Europe/Berlin',
};
const laptop = { viewport: { width: 1280, height: 800 }, locale: 'en-GB', timezoneId: 'Europe/London' };

describe.each([
  ['phone', phone],
  ['laptop', laptop],
] as const)('on a %s', (label, options) => {
  let ctx: BrowserContext;
  beforeAll(async () => {
    ctx = await browser.newContext(options);
    const page = await ctx.newPage();
    await logIn(page);
    await page.close();
  });
  afterAll(async () => ctx?.close());

  it('the icons load before login; the header is one row; the menu (or the nav) reaches every page', async () => {
    // Before login (a fresh browser): the login form names the icons and each answers 200; the
    // only 401 is the login form itself, shown in place of the page. (Headless Chromium fetches no
    // favicon by itself, so the test fetches what the page names, without cookies.)
    const fresh = await browser.newContext(options);
    const before = await fresh.newPage();
    const seen = listen(before);
    await before.goto(`${origin}/admin/`);
    const icons = await before
      .locator('link[rel=icon], link[rel=apple-touch-icon]')
      .evaluateAll((ls) => ls.map((l) => (l as HTMLLinkElement).href));
    expect(icons.length).toBe(2);
    for (const url of [...icons, `${origin}/favicon.ico`]) {
      const res = await before.request.get(url);
      expect(res.status(), url).toBe(200);
      expect(res.headers()['content-type'], url).toMatch(/^image\//);
    }
    expect(seen.statuses.filter((r) => r.status === 401).map((r) => r.url)).toEqual([`${origin}/admin/`]);
    await fresh.close();

    const page = await ctx.newPage();
    await page.goto(`${origin}/admin/`);
    const header = await page.locator('header.top').boundingBox();
    const labels = [
      'Dashboard',
      'Entities',
      'Search',
      'Readings',
      'Graph',
      'Reminders',
      'Conversations',
      'Tasks',
      'Voices',
      'Patterns',
      'Markdown',
      'Clean up old readings',
    ];
    if (label === 'phone') {
      expect(header!.height, 'header height').toBeLessThanOrEqual(844 * 0.15);
      expect(await page.locator('#nav').isVisible()).toBe(false);
      await page.locator('.menu-button').tap();
      await expect.poll(() => page.locator('#nav').isVisible(), POLL).toBe(true);
      expect(await page.locator('.menu-button').getAttribute('aria-expanded')).toBe('true');
    } else {
      expect(header!.height, 'one row').toBeLessThanOrEqual(60);
      expect(await page.locator('.menu-button').isVisible()).toBe(false);
      expect(await page.locator('#nav > a[href="/graph"]').isVisible()).toBe(true);
    }
    await page.locator('details.more > summary').click();
    for (const text of labels)
      expect(await page.locator('#nav a', { hasText: text }).first().isVisible(), text).toBe(true);
    expect(await page.locator('#nav').textContent()).not.toMatch(/series|Prune/);
    await Promise.all([
      page.waitForURL(/\/admin\/prune$/),
      page.locator('#nav a', { hasText: 'Clean up old readings' }).click(),
    ]);
    expect(await page.locator('h1').textContent()).toBe('Clean up old readings');
    await page.close();
  }, 60_000);

  it('a sensor page has its readings, no empty sections, a chart as wide as the page and dates in the browser’s locale', async () => {
    const page = await ctx.newPage();
    await page.goto(`${origin}/admin/entity/sensor.kitchen_temperature`);
    await page.waitForSelector('.chart canvas');
    for (const id of ['readings', 'memories', 'relations'])
      expect(await page.locator(`section#${id}`).count(), id).toBe(1);
    for (const id of ['location', 'more']) expect(await page.locator(`section#${id}`).count(), id).toBe(0);
    expect(await page.locator('h2', { hasText: /Schedule|Reminders|tasks|Conversations|Location/ }).count()).toBe(0);
    const widths = await page.evaluate(() => ({
      main: document.querySelector('main')!.clientWidth,
      chart: document.querySelector('.chart canvas')!.getBoundingClientRect().width,
    }));
    expect(widths.chart / widths.main, 'chart width / content width').toBeGreaterThan(0.85);
    // <time> in the locale and zone: "02.12.2026, 10:20" in Berlin on the phone, "2 Dec 2026, 09:20" in London on the laptop.
    const time = page.locator('figcaption time');
    const at = new Date((await time.getAttribute('datetime'))!);
    const hhmm = new Intl.DateTimeFormat('en-GB', {
      hour: '2-digit',
      minute: '2-digit',
      timeZone: options.timezoneId,
    }).format(at);
    const caption = (await time.textContent())!;
    expect(caption).toMatch(
      label === 'phone' ? /^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/ : /^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/,
    );
    expect(caption).toContain(hhmm);
    const axis = await page.evaluate(() => {
      const u = (window as unknown as { hearthCharts: { plot: { axes: { _values?: string[] }[] } }[] }).hearthCharts[0]
        .plot;
      return JSON.stringify(u.axes[0]._values ?? []);
    });
    expect(JSON.parse(axis).length).toBeGreaterThan(1);
    expect(axis).not.toMatch(/\d+\/\d+/); // not uPlot's US month/day
    // A person's page keeps the personal sections (empty ones say so).
    await page.goto(`${origin}/admin/entity/Brian`);
    expect(await page.locator('section#more h2', { hasText: 'Reminders waiting' }).count()).toBe(1);
    await page.close();
  }, 60_000);

  it('a live reading says how long ago it came', async () => {
    const page = await ctx.newPage();
    await page.goto(`${origin}/admin/readings?entity=garden_${label}`);
    await expect.poll(() => page.locator('#stream-status').textContent(), POLL).toMatch(/^Live/);
    await hub.services.timeseries.record({
      entity_name: `garden_${label}`,
      metric: 'soil_moisture',
      value: 40,
      source: 'api',
    } as never);
    const cell = page.locator('#stream-rows tr td[data-label=When]').first();
    await expect
      .poll(() => cell.textContent(), POLL)
      .toMatch(label === 'phone' ? /^vor \d+ Sekunde/ : /^\d+ seconds? ago$/);
    await page.close();
  }, 60_000);

  it('no admin page logs a console error or warning', async () => {
    const page = await ctx.newPage();
    const seen = listen(page);
    for (const path of PAGES) {
      await page.goto(origin + path);
      await page.waitForLoadState('load');
      if (path === '/graph') await page.waitForSelector('#graph[data-ready]');
      if (path.includes('sensor')) await page.waitForSelector('.chart canvas');
    }
    expect(seen.said).toEqual([]);
    expect(seen.statuses.filter((r) => r.status >= 400)).toEqual([]);
    await page.close();
  }, 60_000);
});
