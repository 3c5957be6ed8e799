/**
 * Issue 34 item 7 over inject (real hub, real SQLite, a fixed clock in Europe/London across the end
 * of summer time): a two-state sensor's page draws a week of open/closed as day rows, its readings
 * are listed newest first by reading time (sent out of order), search separates what recall is sure
 * of from what it is not, one name per page (the menu's word is in the page's title), and a hostile
 * name stays text in the timeline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localToUtc } from '../../../src/lib/tz.js';
import { buildTestHub, type TestHub } from '../../helpers/hub.js';
import { TOKEN } from './helpers.js';

const TZ = 'Europe/London';
const at = (day: number, hour: number, minute = 0) =>
  localToUtc({ year: 2026, month: 10, day, hour, minute, second: 0 }, TZ);
const NOW = at(27, 12); // Tuesday 27 October 2026, noon; summer time ended on Sunday 25th at 02:00
const HOSTILE = `Eve <img src=x onerror=alert(7)> lamp`;

let hub: TestHub;
// The bearer token, not a login: one test moves the clock past a session's 12 hours.
const page = (url: string) =>
  hub.app.inject({ url, headers: { authorization: `Bearer ${TOKEN}`, accept: 'text/html' } });

beforeAll(async () => {
  hub = await buildTestHub({ config: { http: { token: TOKEN }, timeseries: { timezone: TZ } } });
  hub.clock.set(NOW);
  const door: { entity_name: string; metric: string; value: boolean; ts: number; source: string }[] = [];
  const open = (from: number, to: number) =>
    door.push(
      { entity_name: 'garage_door', metric: 'contact', value: false, ts: from, source: 'test' },
      { entity_name: 'garage_door', metric: 'contact', value: true, ts: to, source: 'test' },
    );
  for (let day = 19; day <= 27; day++) open(at(day, 7, 30), at(day, 7, 35));
  open(at(26, 22, 30), at(26, 23, 54));
  // Sent newest first and shuffled: the page orders by reading time, not by arrival.
  door.reverse();
  door.push(door.splice(3, 1)[0]);
  await hub.services.timeseries.recordBulk({ readings: door } as never);
  await hub.services.timeseries.record({ entity_name: HOSTILE, metric: 'state', value: 'on', ts: at(27, 9) } as never);
  await hub.services.timeseries.record({
    entity_name: 'sensor.attic',
    metric: 'temperature',
    value: 14.5,
    unit: '°C',
    ts: at(27, 11),
  } as never);
  for (const fact of ['Brian takes his coffee black, no sugar', 'Brian cycles to work on Tuesdays'])
    await hub.services.memory.remember(
      { entity_name: 'Brian', fact, category: 'preference', confidence: 1, source: 'manual' } as never,
      'http',
    );
  await hub.services.memory.remember(
    {
      entity_name: 'Sam',
      fact: 'Sam the plumber services the gas heater every October',
      category: 'general',
      confidence: 1,
      source: 'manual',
    } as never,
    'http',
  );
}, 60_000);
afterAll(async () => hub?.close());

const rows = (body: string) =>
  [
    ...body.matchAll(
      /<li><span class="day">([^<]+)<\/span><svg class="bands" viewBox="0 0 (\d+) 10"[^>]*aria-label="([^"]+)">(.*?)<\/svg><\/li>/g,
    ),
  ].map((m) => ({ day: m[1], width: Number(m[2]), said: m[3], bands: (m[4].match(/<rect class="on"/g) ?? []).length }));

describe('a two-state sensor: the timeline', () => {
  it('draws the last seven days, today on top, each band an opening, read as open/closed (contact: false is open)', async () => {
    const res = await page('/admin/entity/garage_door');
    expect(res.statusCode).toBe(200);
    const days = rows(res.body);
    expect(days.map((d) => d.day)).toEqual([
      'Today',
      'Yesterday',
      'Sun 25 Oct',
      'Sat 24 Oct',
      'Fri 23 Oct',
      'Thu 22 Oct',
      'Wed 21 Oct',
    ]);
    expect(days.map((d) => d.bands)).toEqual([1, 2, 1, 1, 1, 1, 1]);
    expect(days[1].said).toBe('Yesterday: open 07:30–07:35, 22:30–23:54');
    expect(days[0].said).toBe('Today: open 07:30–07:35');
    // The day summer time ended has 25 hours; the others 24.
    expect(days.map((d) => d.width)).toEqual([86_400, 86_400, 90_000, 86_400, 86_400, 86_400, 86_400]);
    expect(res.body).toMatch(/contact: <strong>closed<\/strong> since <time datetime="2026-10-27T07:35:00.000Z"/);
    expect(res.body).not.toMatch(/class="chart"[^>]*data-metric="contact"/);
  });

  it('a day of no opening says so; before the first reading nothing is drawn as known', async () => {
    hub.clock.set(at(29, 6)); // Thursday 6:00: nothing yet today
    try {
      const days = rows((await page('/admin/entity/garage_door')).body);
      expect(days[0]).toMatchObject({ day: 'Today', bands: 0, said: 'Today: closed all day so far' });
    } finally {
      hub.clock.set(NOW);
    }
    await hub.services.timeseries.record({
      entity_name: 'shed_door',
      metric: 'state',
      value: 'open',
      ts: at(26, 18),
    } as never);
    const shed = rows((await page('/admin/entity/shed_door')).body);
    expect(shed.map((d) => d.said)).toEqual([
      'Today: open 00:00–now',
      'Yesterday: open 18:00–24:00',
      'Sun 25 Oct: no readings',
      'Sat 24 Oct: no readings',
      'Fri 23 Oct: no readings',
      'Thu 22 Oct: no readings',
      'Wed 21 Oct: no readings',
    ]);
  });

  it('a hostile entity name stays text, and its on/off is a timeline too', async () => {
    const res = await page(`/admin/entity/${encodeURIComponent(HOSTILE)}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<img src=x');
    expect(res.body).toContain('&lt;img src=x onerror=alert(7)&gt;');
    expect(rows(res.body)[0].said).toBe('Today: on 09:00–now');
  });
});

describe('a sensor: the latest readings', () => {
  it('are listed newest first by reading time, with the words for a two-state value and the stored value in the tooltip', async () => {
    const body = (await page('/admin/entity/garage_door')).body;
    const list = /<ol class="reading-list"[^>]*>(.*?)<\/ol>/s.exec(body)?.[1] ?? '';
    const times = [...list.matchAll(/<time datetime="([^"]+)"/g)].map((m) => Date.parse(m[1]) / 1000);
    expect(times).toHaveLength(20);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(times[0]).toBe(at(27, 7, 35));
    expect(list).toContain('<strong title="stored: true">closed</strong>');
    expect(list).toContain('<strong title="stored: false">open</strong>');
  });

  it('a numeric sensor keeps its chart and lists its value with the unit', async () => {
    const body = (await page('/admin/entity/sensor.attic')).body;
    expect(body).toMatch(/class="chart"[^>]*data-metric="temperature"/);
    expect(body).toMatch(/<ol class="reading-list"[^>]*><li>.*?<strong>14.5 °C<\/strong>/s);
  });
});

describe('search: sure and not sure apart', () => {
  it('what recall is sure of under "Found", a possible match under "Not sure", and no confidence on every hit', async () => {
    const sure = (await page('/admin/search?q=coffee')).body;
    expect(sure).toMatch(/<h2>Found \(1\)<\/h2>[\s\S]*Brian takes his coffee black/);
    expect(sure).not.toContain('id="not-sure"');
    const body = (await page('/admin/search?q=who+looks+after+our+boiler')).body;
    const notSure = body.slice(body.indexOf('id="not-sure"'));
    expect(body).toContain('<h2>Found (0)</h2>');
    expect(notSure).toMatch(/Not sure — possibly related/);
    expect(notSure).toContain('Sam the plumber services the gas heater');
    for (const b of [sure, body]) {
      expect(b).not.toMatch(/Confidence|<meter/);
      expect(b).not.toMatch(/>\s*100\s%/);
    }
  });
});

describe('one name for one page', () => {
  it("each menu entry's word is in its page's title; Reminders everywhere, no Intentions", async () => {
    const dashboard = (await page('/admin/')).body;
    const links = [...dashboard.matchAll(/<a href="([^"]+)"(?: aria-current="page")?>([^<]+)<\/a>/g)]
      .map((m) => [m[1], m[2]])
      .filter(([href]) => href.startsWith('/admin/') || href === '/graph');
    const menu = links.slice(links.findIndex(([, l]) => l === 'Dashboard'));
    expect(menu.map(([, l]) => l)).toContain('Reminders');
    for (const [href, label] of menu.slice(0, 12)) {
      const res = await page(href);
      expect(res.statusCode, href).toBe(200);
      const h1 = /<h1>([^<]+)<\/h1>/.exec(res.body)?.[1] ?? '';
      expect(h1.toLowerCase(), `${href} is "${label}" in the menu`).toContain(label.toLowerCase().replace(/s$/, ''));
      expect(res.body, href).not.toMatch(/>[^<]*\bIntentions?\b[^<]*</);
    }
    expect((await page('/admin/entity/Brian')).body).not.toMatch(/>[^<]*\b[Ii]ntentions?\b[^<]*</);
  });
});
