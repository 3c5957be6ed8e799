/**
 * The admin UI in a real browser: Debian's Chromium driven by playwright-core against a real hub
 * (HTTP and the embedded MQTT broker on free ports), at desktop width and at 390 px. One browser
 * launch for the file; each viewport gets a fresh context (no cookies). Screenshots go to
 * test-artifacts/ (gitignored).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { launchChromium } from '../../helpers/chromium.js';
import { closeInOrder } from '../../helpers/teardown.js';
import { ARTIFACTS, PHONE, POLL, logInAt, smallTouchTargets, startForBrowser, submit } from '../../helpers/admin-ui.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, rememberByHand, type TestHub } from '../../helpers/hub.js';
import { rememberAt, TOKEN } from './helpers.js';

const HOSTILE = `Brian's note <script>alert('pwned')</script><img src=x onerror="alert(1)">`;
let hub: TestHub;
let browser: Browser;
let origin: string;
let mqttUrl: string;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  hub = await buildTestHub({ config: { http: { token: TOKEN }, mqtt: { mode: 'embedded', port: 0 } } });
  const addr = await startForBrowser(hub);
  origin = addr.origin;
  mqttUrl = addr.mqtt!;
  const s = hub.services;
  await rememberByHand(hub, 'Brian', HOSTILE, { entity_type: 'person' }, 'http');
  await rememberByHand(
    hub,
    'Brian',
    'Brian keeps the bedroom at 68°F at night',
    { category: 'preference', entity_type: 'person' },
    'http',
  );
  s.relations.relate({ entity_a: 'Brian', entity_b: 'bedroom', rel_type: 'sleeps_in', entity_b_type: 'room' });
  s.relations.relate({ entity_a: 'Anna', entity_b: 'Brian', rel_type: 'spouse_of' });
  const now = hub.clock.now();
  await s.timeseries.recordBulk({
    readings: Array.from({ length: 48 }, (_, i) => ({
      entity_name: 'bedroom',
      metric: 'temperature',
      value: 19 + Math.sin(i / 4) * 2,
      unit: '°C',
      source: 'api',
      ts: now - (48 - i) * 900,
    })),
  });
  browser = await launchChromium();
}, 60_000);
afterAll(() => closeInOrder(browser, hub));

const bearer = { authorization: `Bearer ${TOKEN}` };
const api = async (path: string) =>
  (await fetch(`${origin}${path}`, { headers: bearer })).json() as Promise<Record<string, any>>;

interface Watch {
  dialogs: string[];
  foreign: string[];
  errors: string[];
}
function watch(page: Page): Watch {
  const w: Watch = { dialogs: [], foreign: [], errors: [] };
  page.on('dialog', (d) => {
    w.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('request', (r) => {
    if (!r.url().startsWith(`${origin}/`)) w.foreign.push(r.url());
  });
  page.on('pageerror', (e) => w.errors.push(e.message));
  // CSP violations ("Refused to load/execute/apply …") are console errors in Chromium. The 401 of the
  // login form in place is one too ("Failed to load resource"), and expected.
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 401/.test(m.text())) w.errors.push(`${page.url()}: ${m.text()}`);
  });
  return w;
}

/** Nothing wider than the viewport; buttons, nav links, chips, summaries and inputs at least 40 px tall. */
async function checkLayout(page: Page, name: string, width: number) {
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  if (wide > width) await shot(page, `${name.replace(/\W+/g, '-')}-too-wide`);
  const culprits = await page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter(
        (el) =>
          el.getBoundingClientRect().right > window.innerWidth + 1 &&
          ![...el.children].some((c) => c.getBoundingClientRect().right > window.innerWidth + 1),
      )
      .map((el) => el.outerHTML.slice(0, 120))
      .slice(0, 5),
  );
  expect(culprits, `${name}: page scrolls sideways (${wide} px)`).toEqual([]);
  expect(wide, `${name}: page scrolls sideways`).toBeLessThanOrEqual(width);
  const small = await smallTouchTargets(
    page,
    'button, .button, .top nav a, a.chip, .toc a, summary, input:not([type=hidden]):not([type=checkbox]), select, textarea',
  );
  expect(small, `${name}: touch targets under 40 px`).toEqual([]);
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

async function flow(ctx: BrowserContext, label: string, width: number) {
  const page = await ctx.newPage();
  const w = watch(page);
  const confirmId = await rememberAt(hub, 'Brian', `Brian liked jazz on Fridays (${label})`, 400);
  const forgetId = await rememberAt(hub, 'Brian', `Brian played squash on Tuesdays (${label})`, 400);

  // Log in: the dashboard URL shows the login form in place, then the dashboard itself.
  await page.goto(`${origin}/admin/`);
  await checkLayout(page, `${label} login`, width);
  await shot(page, `${label}-login`);
  await page.fill('input[name=token]', TOKEN);
  await submit(page, () => page.click('button[type=submit]'));
  expect(page.url()).toBe(`${origin}/admin/`);
  await expect.poll(() => page.locator('h1').textContent(), POLL).toBe('Dashboard');
  await checkLayout(page, `${label} dashboard`, width);
  await shot(page, `${label}-dashboard`);

  // Find Brian by search and open him (on a phone, through the menu).
  if (await page.locator('.menu-button').isVisible()) await page.click('.menu-button');
  await page.click('.top nav a[href="/admin/entities"]');
  await page.fill('input[name=q]', 'bri');
  await Promise.all([page.waitForURL(/q=bri/), page.click('form.search button[type=submit]')]);
  await checkLayout(page, `${label} entities`, width);
  await shot(page, `${label}-entities`);
  await Promise.all([page.waitForURL(/\/admin\/entity\/Brian$/), page.click('a.entity-link:text-is("Brian")')]);
  const hostile = page.locator('td.fact', { hasText: "<script>alert('pwned')</script>" });
  await expect.poll(() => hostile.count(), POLL).toBe(1);
  await checkLayout(page, `${label} entity Brian`, width);
  await shot(page, `${label}-entity`);

  // A chart renders on the bedroom's page: its canvas has drawn pixels.
  await page.goto(`${origin}/admin/entity/bedroom?g=raw`);
  await page.waitForSelector('.chart canvas');
  const painted = await page.evaluate(() => {
    const c = document.querySelector('.chart canvas') as HTMLCanvasElement;
    const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n;
  });
  expect(painted).toBeGreaterThan(500);
  await checkLayout(page, `${label} entity bedroom`, width);
  await shot(page, `${label}-chart`);

  // Confirm one fading memory and forget another from the dashboard (htmx swaps the rows).
  await page.goto(`${origin}/admin/`);
  const row = page.locator(`#memory-${confirmId}`);
  await row.locator('button[data-action=confirm]').click();
  await expect.poll(() => row.locator('td[data-label=Confidence]').textContent(), POLL).toMatch(/100\s%/);
  const gone = page.locator(`#memory-${forgetId}`);
  await gone.locator('summary').click();
  await gone.locator('button[data-action=forget]').click();
  await expect.poll(() => page.locator(`#memory-${forgetId}.gone`).count(), POLL).toBe(1);
  const fading = (await api('/fading')).memories.map((m: { id: number }) => m.id);
  expect(fading).not.toContain(confirmId);
  expect(fading).not.toContain(forgetId);
  const profile = await api('/profile/Brian');
  expect(profile.memories.map((m: { id: number }) => m.id)).toContain(confirmId);
  expect(profile.memories.map((m: { id: number }) => m.id)).not.toContain(forgetId);

  // A reading published over MQTT shows up in the live stream without a reload.
  await page.goto(`${origin}/admin/readings?entity=garden_${label}`);
  await expect.poll(() => page.locator('#stream-status').textContent(), POLL).toMatch(/^Live/);
  const client = await mqtt.connectAsync(mqttUrl);
  await client.publishAsync(`hearth/record/garden_${label}/soil_moisture`, '42.5', { qos: 1 });
  await client.publishAsync(`hearth/record/elsewhere/soil_moisture`, '7', { qos: 1 });
  await client.endAsync();
  const arrived = page.locator('#stream-rows tr', { hasText: 'soil_moisture' });
  await expect.poll(() => arrived.count(), POLL).toBe(1);
  expect(await arrived.textContent()).toContain('42.5');
  await checkLayout(page, `${label} readings`, width);
  await shot(page, `${label}-readings`);

  // The graph draws the entities; tapping Brian opens his page (centred first: a phone shows part of a big graph).
  await page.goto(`${origin}/graph`);
  await page.waitForSelector('#graph[data-ready]');
  await checkLayout(page, `${label} graph`, width);
  await shot(page, `${label}-graph`);
  // Where Brian's node is once the graph has settled (a fit after load may still move it): centred,
  // read after two frames, clicked; read again and clicked again if the first click met a moving node.
  const brianAt = () =>
    page.evaluate(async () => {
      const cy = (
        window as unknown as {
          hearthGraph: {
            center(n: unknown): void;
            nodes(): { data(k: string): string; renderedPosition(): { x: number; y: number } }[];
          };
        }
      ).hearthGraph;
      const n = cy.nodes().find((x) => x.data('label') === 'Brian')!;
      cy.center(n);
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const box = document.getElementById('graph')!.getBoundingClientRect();
      return { x: box.left + n.renderedPosition().x, y: box.top + n.renderedPosition().y };
    });
  for (let attempt = 0; ; attempt++) {
    const at = await brianAt();
    const went = page.waitForURL(/\/admin\/entity\/Brian$/, { timeout: 10_000 }).then(
      () => true,
      () => false,
    );
    await page.mouse.click(at.x, at.y);
    if (await went) break;
    expect(attempt, `${label}: a click on Brian's node opens his page`).toBeLessThan(2);
  }

  // Prune preview renders too.
  await page.goto(`${origin}/admin/prune`);
  await checkLayout(page, `${label} prune`, width);
  await shot(page, `${label}-prune`);

  expect(w.dialogs, 'a dialog opened: something executed').toEqual([]);
  expect(w.foreign, 'requests left the hub').toEqual([]);
  expect(w.errors, 'script errors').toEqual([]);
  await page.close();
}

describe('admin UI in Chromium', () => {
  it('desktop: log in, search, chart, confirm and forget, live stream, graph; nothing executes or leaves the hub', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      await flow(ctx, 'desktop', 1280);
    } finally {
      await ctx.close();
    }
  }, 120_000);

  it('the same on a 390-px phone', async () => {
    const ctx = await browser.newContext(PHONE);
    try {
      await flow(ctx, 'phone', 390);
    } finally {
      await ctx.close();
    }
  }, 120_000);

  it('on a phone: find what Brian prefers, correct it, and recall over MCP returns the correction', async () => {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const mcp = new Client({ name: 'admin-ui-test', version: '1.0.0' });
    try {
      const page = await ctx.newPage();
      const w = watch(page);
      await logInAt(page, `${origin}/admin/entities?q=Brian`, TOKEN);
      expect(page.url()).toMatch(/\/admin\/entities\?q=Brian$/);
      await Promise.all([page.waitForURL(/\/admin\/entity\/Brian$/), page.tap('a.entity-link:text-is("Brian")')]);
      const row = page.locator('tr', {
        has: page.locator('td.fact', { hasText: 'Brian keeps the bedroom at 68°F at night' }),
      });
      await row.locator('summary', { hasText: 'Edit' }).tap();
      await row.locator('textarea[name=fact]').fill('Brian keeps the bedroom at 66°F at night');
      await submit(page, () => row.locator('button[data-action=edit]').tap());
      expect(page.url()).toMatch(/\/admin\/entity\/Brian$/);
      await expect.poll(() => page.locator('td.fact', { hasText: '66°F' }).count(), POLL).toBe(1);
      await expect.poll(() => page.locator('tr.superseded td.fact', { hasText: '68°F' }).count(), POLL).toBe(1);
      await checkLayout(page, 'phone corrected', 390);
      await shot(page, 'phone-corrected');
      expect(w.dialogs).toEqual([]);
      expect(w.foreign).toEqual([]);
      expect(w.errors).toEqual([]);

      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { requestInit: { headers: bearer } }),
      );
      const r = await mcp.callTool({
        name: 'recall',
        arguments: { query: 'what temperature does Brian keep the bedroom at night', entity_name: 'Brian' },
      });
      const facts = (r.structuredContent as { results: { fact: string }[] }).results.map((x) => x.fact);
      expect(facts[0]).toBe('Brian keeps the bedroom at 66°F at night');
      expect(facts).not.toContain('Brian keeps the bedroom at 68°F at night');
    } finally {
      await mcp.close();
      await ctx.close();
    }
  }, 60_000);

  it('without the token, no page or asset shows data', async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    try {
      for (const path of ['/admin/', '/admin/entity/Brian', '/graph', '/api/graph', '/admin/assets/admin.js']) {
        const res = await page.goto(`${origin}${path}`);
        expect(res!.status(), path).toBe(401);
        expect(await page.content(), path).not.toContain('68°F');
      }
    } finally {
      await ctx.close();
    }
  }, 60_000);
});
