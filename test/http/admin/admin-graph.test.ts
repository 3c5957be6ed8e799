/** The graph: a type keeps its colour whatever else exists; the same drawing on every load; human relation labels. */
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumPath } from '../../helpers/chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, type TestHub } from '../../helpers/hub.js';

let hub: TestHub;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  hub = await buildTestHub();
  origin = (await hub.start()).http!.replace('127.0.0.1', 'localhost');
  const s = hub.services;
  s.relations.relate({ entity_a: 'Anna', entity_b: 'Brian', rel_type: 'spouse_of', entity_a_type: 'person', entity_b_type: 'person' } as never);
  s.relations.relate({ entity_a: 'Brian', entity_b: 'bedroom', rel_type: 'sleeps_in', entity_b_type: 'room' } as never);
  browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await hub?.close();
});

/** The legend's colour class of a type on /graph. */
const swatch = async (type: string) =>
  [...(await hub.app.inject({ url: '/graph' })).body.matchAll(/class="swatch (c\d)" data-type="([^"]+)"/g)].find((m) => m[2] === type)?.[1];

async function positions(page: Page) {
  await page.goto(`${origin}/graph`);
  await page.waitForSelector('#graph[data-ready]');
  return page.evaluate(() => {
    const cy = (window as unknown as { hearthGraph: { nodes(): { data(k: string): string; position(): { x: number; y: number } }[]; edges(): { data(k: string): string }[] } }).hearthGraph;
    return { nodes: cy.nodes().map((n) => [n.data('label'), Math.round(n.position().x), Math.round(n.position().y)]), edges: cy.edges().map((e) => e.data('label')) };
  });
}

describe('graph', () => {
  it('a type keeps its colour when other types appear', async () => {
    const before = await swatch('person');
    await hub.services.timeseries.record({ entity_name: 'aaa_zigbee_plug', metric: 'power', value: 5, source: 'api', entity_type: 'device' } as never);
    await hub.services.timeseries.record({ entity_name: 'aardvark', metric: 'x', value: 1, source: 'api', entity_type: 'animal' } as never);
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
