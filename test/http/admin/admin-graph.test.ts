/**
 * The graph in Chromium: a type keeps its colour whatever else exists; the same drawing on every load;
 * human relation labels; at 390 and 1280 px every located object has an edge to its place, no entity
 * whose type the data tells is "unknown", the type and room filters, tapping opens the entity, a
 * hostile name stays text, and no console error or warning.
 */
import { type Browser, type Page } from 'playwright-core';
import { launchChromium } from '../../helpers/chromium.js';
import { closeInOrder } from '../../helpers/teardown.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, type TestHub } from '../../helpers/hub.js';
import { LocateInput } from '../../../src/tiers/spatial/spatial.schemas.js';

const HOSTILE = `<img src=x onerror="alert(1)">Rex's "basket"`;

let hub: TestHub;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  hub = await buildTestHub();
  origin = (await hub.start()).http!.replace('127.0.0.1', 'localhost');
  const s = hub.services;
  s.relations.relate({
    entity_a: 'Anna',
    entity_b: 'Brian',
    rel_type: 'spouse_of',
    entity_a_type: 'person',
    entity_b_type: 'person',
  } as never);
  s.relations.relate({ entity_a: 'Brian', entity_b: 'bedroom', rel_type: 'sleeps_in', entity_b_type: 'room' } as never);
  // What a household's data looks like: types left unknown by the doors that made the entities.
  await s.memory.remember(
    {
      entity_name: 'Rex',
      fact: 'Rex is a golden retriever who sleeps by the door',
      category: 'habit',
      confidence: 1,
      source: 'manual',
    } as never,
    'http',
  );
  await s.memory.remember(
    {
      entity_name: 'Carla',
      fact: 'Carla takes her tea with lemon',
      category: 'preference',
      confidence: 1,
      source: 'manual',
    } as never,
    'http',
  );
  s.relations.relate({ entity_a: 'Brian', entity_b: 'Rex', rel_type: 'owns' } as never);
  for (const [entity_name, container_name] of [
    ['car keys', 'hall drawer'],
    ['spare key', 'hall drawer'],
    ['hall drawer', 'hallway'],
    ['passport', 'blue box'],
    [HOSTILE, 'hallway'],
  ]) {
    s.spatial.locate(LocateInput.parse({ entity_name, container_name }), 'http');
  }
  await s.timeseries.record({ entity_name: 'sensor.hall_motion', metric: 'motion', value: 1, source: 'api' } as never);
  browser = await launchChromium();
}, 60_000);
afterAll(() => closeInOrder(browser, hub));

/** The legend's colour class of a type on /graph. */
const swatch = async (type: string) =>
  [...(await hub.app.inject({ url: '/graph' })).body.matchAll(/class="swatch (c\d)" data-type="([^"]+)"/g)].find(
    (m) => m[2] === type,
  )?.[1];

async function positions(page: Page) {
  await page.goto(`${origin}/graph`);
  await page.waitForSelector('#graph[data-ready]');
  return page.evaluate(() => {
    const cy = (
      window as unknown as {
        hearthGraph: {
          nodes(): { data(k: string): string; position(): { x: number; y: number } }[];
          edges(): { data(k: string): string }[];
        };
      }
    ).hearthGraph;
    return {
      nodes: cy.nodes().map((n) => [n.data('label'), Math.round(n.position().x), Math.round(n.position().y)]),
      edges: cy.edges().map((e) => e.data('label')),
    };
  });
}

interface Cy {
  nodes(): { id(): string; data(k: string): string; degree(): number; renderedPosition(): { x: number; y: number } }[];
  edges(): { data(k: string): string }[];
  center(n: unknown): void;
}

/** Opens /graph (query `q`), waits for the drawing, and records console errors and warnings. */
async function openGraph(page: Page, q = '') {
  const said: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') said.push(m.text());
  });
  page.on('pageerror', (e) => said.push(e.message));
  page.on('dialog', (d) => {
    said.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  await page.goto(`${origin}/graph${q}`);
  await page.waitForSelector('#graph[data-ready]');
  return said;
}

const drawn = (page: Page) =>
  page.evaluate(() => {
    const cy = (window as unknown as { hearthGraph: Cy }).hearthGraph;
    return {
      nodes: cy.nodes().map((n) => ({ id: n.id(), label: n.data('label'), type: n.data('type') })),
      edges: cy.edges().map((e) => ({
        source: e.data('source'),
        target: e.data('target'),
        label: e.data('label'),
        kind: e.data('kind'),
      })),
    };
  });

describe.each([
  ['phone', { width: 390, height: 844 }],
  ['laptop', { width: 1280, height: 800 }],
] as const)('the graph on a %s', (_label, viewport) => {
  it('links every located object to its place, types what the data tells, filters, opens on tap; a hostile name is text', async () => {
    const ctx = await browser.newContext({ viewport, ...(viewport.width < 500 && { isMobile: true, hasTouch: true }) });
    const page = await ctx.newPage();
    try {
      const said = await openGraph(page);
      const g = await drawn(page);
      const byLabel = new Map(g.nodes.map((n) => [n.label, n]));
      const located = (await hub.db
        .prepare(
          'SELECT e.name AS object, c.name AS place FROM locations l JOIN entities e ON e.id = l.entity_id JOIN entities c ON c.id = l.container_id WHERE l.active = 1',
        )
        .all()) as { object: string; place: string }[];
      expect(located.length).toBe(5);
      for (const l of located) {
        expect(g.edges, `${l.object} → ${l.place}`).toContainEqual({
          source: byLabel.get(l.object)!.id,
          target: byLabel.get(l.place)!.id,
          label: 'in',
          kind: 'location',
        });
      }
      // Stored as unknown, shown as what the data says.
      expect(byLabel.get('Rex')?.type).toBe('pet');
      expect(byLabel.get('Carla')?.type).toBe('person');
      expect(byLabel.get('hall drawer')?.type).toBe('object'); // located itself: an object that holds things
      expect(byLabel.get('hallway')?.type).toBe('place');
      expect(byLabel.get('blue box')?.type).toBe('place');
      expect(byLabel.get('sensor.hall_motion')?.type).toBe('sensor');
      expect(g.nodes.filter((n) => n.type === 'unknown')).toEqual([]);
      // The hostile name: a label in the drawing, text in the list; nothing ran.
      expect(byLabel.has(HOSTILE)).toBe(true);
      await page.locator('details summary', { hasText: 'Links as a list' }).click();
      expect(await page.locator('td a', { hasText: 'onerror' }).first().textContent()).toBe(HOSTILE);
      expect(await page.locator('img[src=x]').count()).toBe(0);

      // Filter by type (the form, as a person would).
      await page.locator('input[name=type][value=person]').check();
      await Promise.all([page.waitForURL(/type=person/), page.click('form.graph-filters button[type=submit]')]);
      await page.waitForSelector('#graph[data-ready]');
      const people = await drawn(page);
      expect(people.nodes.length).toBeGreaterThan(1);
      expect(people.nodes.every((n) => n.type === 'person')).toBe(true);

      // Filter by room: the hallway, what is in it (the drawer, and the keys in the drawer) and what is related.
      await page.goto(`${origin}/graph`);
      await page.selectOption('select[name=room]', 'hallway');
      await Promise.all([page.waitForURL(/room=hallway/), page.click('form.graph-filters button[type=submit]')]);
      await page.waitForSelector('#graph[data-ready]');
      const hall = await drawn(page);
      expect(hall.nodes.map((n) => n.label).sort()).toEqual(
        ['car keys', 'hall drawer', 'hallway', 'spare key', HOSTILE].sort(),
      );

      // Tap a node: its entity page opens.
      const at = await page.evaluate(() => {
        const cy = (window as unknown as { hearthGraph: Cy }).hearthGraph;
        const n = cy.nodes().find((x) => x.data('label') === 'spare key')!;
        cy.center(n);
        const box = document.getElementById('graph')!.getBoundingClientRect();
        return { x: box.left + n.renderedPosition().x, y: box.top + n.renderedPosition().y };
      });
      await Promise.all([
        page.waitForURL(/\/admin\/entity\/spare%20key$/),
        viewport.width < 500 ? page.touchscreen.tap(at.x, at.y) : page.mouse.click(at.x, at.y),
      ]);
      expect(said, 'console errors or warnings, or a dialog').toEqual([]);
    } finally {
      await ctx.close();
    }
  }, 90_000);
});

describe('graph', () => {
  it('a type keeps its colour when other types appear', async () => {
    const before = await swatch('person');
    await hub.services.timeseries.record({
      entity_name: 'aaa_zigbee_plug',
      metric: 'power',
      value: 5,
      source: 'api',
      entity_type: 'device',
    } as never);
    await hub.services.timeseries.record({
      entity_name: 'aardvark',
      metric: 'x',
      value: 1,
      source: 'api',
      entity_type: 'animal',
    } as never);
    expect(await swatch('device')).toBeDefined();
    expect(await swatch('person')).toBe(before);
    expect((await hub.app.inject({ url: '/graph' })).body).toContain('<td data-label="Relation">spouse of</td>');
  });

  it('draws the same layout on every load, with the labels the entity page uses', async () => {
    const page = await browser.newPage();
    try {
      const a = await positions(page);
      const b = await positions(page);
      expect(a.nodes.length).toBeGreaterThan(3);
      expect(b).toEqual(a);
      expect(a.edges).toEqual(expect.arrayContaining(['spouse of', 'sleeps in']));
    } finally {
      await page.close();
    }
  }, 60_000);
});
