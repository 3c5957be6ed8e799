/** In Chromium: a new sensor's first reading is centred on a sensible span; a percentage stops at 100. */
import { type Browser } from 'playwright-core';
import { launchChromium } from '../../helpers/chromium.js';
import { startForBrowser } from '../../helpers/admin-ui.js';
import { closeInOrder } from '../../helpers/teardown.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, type TestHub } from '../../helpers/hub.js';

let hub: TestHub;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  hub = await buildTestHub();
  origin = (await startForBrowser(hub)).origin;
  await hub.services.timeseries.record({
    entity_name: 'hall_sensor',
    metric: 'battery',
    value: 97,
    unit: '%',
    source: 'api',
  });
  browser = await launchChromium();
}, 60_000);
afterAll(() => closeInOrder(browser, hub));

describe('charts', () => {
  it('one reading: the point is centred on a couple of hours, and a battery % axis ends at 100', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${origin}/admin/entity/hall_sensor`);
      await page.waitForSelector('.chart canvas');
      const s = await page.evaluate(() => {
        const plot = (
          window as unknown as { hearthCharts: { plot: { scales: Record<string, { min: number; max: number }> } }[] }
        ).hearthCharts[0].plot;
        return { x: plot.scales.x, y: plot.scales.y };
      });
      const ts = hub.clock.now();
      expect(s.x.max - s.x.min).toBeLessThanOrEqual(4 * 3600);
      expect(Math.abs((s.x.min + s.x.max) / 2 - ts)).toBeLessThan(60);
      expect(s.y.max).toBeLessThanOrEqual(100);
      expect(s.y.min).toBeLessThan(97);
      expect(s.y.max).toBeGreaterThan(97);
    } finally {
      await page.close();
    }
  }, 60_000);
});
