/**
 * Screenshots of the admin UI for docs/admin-ui.md: starts a hub on a temporary data dir with a
 * token, fills it with a small household through the HTTP API (people, a dog, rooms, sensors with a
 * day of readings, located objects, an intention, a conversation, a task, an unknown voice), logs in
 * with Chromium (playwright-core) and saves the main pages at 390 px (phone) and 1280 px (laptop) as
 * docs/img/admin-{phone,desktop}-<page>.png. A page that answers 404 (not built yet) is skipped.
 *
 *   npm run build && node dist/scripts/admin-screenshots.js [--out docs/img] [--only graph,dashboard]
 *
 * Chromium: $PLAYWRIGHT_CHROMIUM, else chromium / chromium-browser / google-chrome on PATH.
 */
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type BrowserContext } from 'playwright-core';
import { parseConfig } from '../src/config/load.js';
import { createLocalEmbedder } from '../src/ai/local-embedder.js';
import { createHub } from '../src/main.js';

const TOKEN = 'screenshots-token-0123456789abcdef';

/** The pages, by file name; `prep` runs after the page loaded (open the menu, wait for the drawing). */
const PAGES: { name: string; path: string; wait?: string; prep?: 'menu' | 'ask' }[] = [
  { name: 'dashboard', path: '/admin/' },
  { name: 'ask', path: '/admin/', prep: 'ask' },
  { name: 'menu', path: '/admin/', prep: 'menu' },
  { name: 'entities', path: '/admin/entities' },
  { name: 'entity', path: '/admin/entity/Brian' },
  { name: 'sensor', path: '/admin/entity/sensor.kitchen_temperature?g=raw', wait: '.chart canvas' },
  { name: 'sensor-door', path: '/admin/entity/garage_door' },
  { name: 'readings', path: '/admin/readings' },
  { name: 'graph', path: '/graph', wait: '#graph[data-ready]' },
  { name: 'graph-room', path: '/graph?room=hallway', wait: '#graph[data-ready]' },
  { name: 'search', path: '/admin/search?q=coffee' },
  { name: 'intentions', path: '/admin/intentions' },
  { name: 'sessions', path: '/admin/sessions' },
  { name: 'tasks', path: '/admin/tasks' },
  { name: 'voices', path: '/admin/voices' },
  { name: 'patterns', path: '/admin/patterns' },
  { name: 'markdown', path: '/admin/markdown' },
  { name: 'prune', path: '/admin/prune' },
];

function chromiumPath(): string {
  const set = process.env.PLAYWRIGHT_CHROMIUM;
  if (set) return set;
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
      try {
        accessSync(join(dir, name), constants.X_OK);
        return join(dir, name);
      } catch {
        // next
      }
    }
  }
  throw new Error('no Chromium found: install one (apt-get install chromium) or set PLAYWRIGHT_CHROMIUM');
}

/** The package root (has package.json), seen from dist/scripts or scripts. */
function root(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

async function household(origin: string) {
  const call = async (path: string, body: unknown) => {
    const res = await fetch(origin + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const now = Math.floor(Date.now() / 1000);
  const facts: [string, string, string][] = [
    ['Brian', 'Brian takes his coffee black, no sugar', 'preference'],
    ['Brian', 'Brian works from home on Mondays and Fridays', 'routine'],
    ['Brian', 'Brian keeps the bedroom at 18 °C at night', 'preference'],
    ['Brian', 'Brian is allergic to penicillin', 'general'],
    ['Brian', 'Brian plays five-a-side football on Thursday evenings', 'routine'],
    ['Brian', 'Brian’s birthday is on 14 March', 'general'],
    ['Anna', 'Anna is allergic to walnuts', 'general'],
    ['Anna', 'Anna runs by the river on Saturday mornings', 'habit'],
    ['Mia', 'Mia has swimming on Wednesdays after school', 'routine'],
    ['Mia', 'Mia’s favourite book is The Hobbit', 'preference'],
    ['Rex', 'Rex is a golden retriever and needs two walks a day', 'habit'],
    ['Rex', 'Rex is not allowed on the sofa', 'general'],
    ['wifi', 'The wifi password is on the card in the hall drawer', 'general'],
  ];
  for (const [entity_name, fact, category] of facts)
    await call('/remember', { entity_name, fact, category, source: 'screenshots' });
  await call('/relate', { entity_a: 'Anna', entity_b: 'Brian', rel_type: 'spouse_of' });
  await call('/relate', { entity_a: 'Mia', entity_b: 'Anna', rel_type: 'child_of' });
  await call('/relate', { entity_a: 'Mia', entity_b: 'Brian', rel_type: 'child_of' });
  await call('/relate', { entity_a: 'Brian', entity_b: 'Rex', rel_type: 'owns' });
  await call('/relate', { entity_a: 'Brian', entity_b: 'bedroom', rel_type: 'sleeps_in', entity_b_type: 'room' });
  await call('/relate', { entity_a: 'Anna', entity_b: 'bedroom', rel_type: 'sleeps_in' });
  await call('/relate', { entity_a: 'Mia', entity_b: 'kids room', rel_type: 'sleeps_in', entity_b_type: 'room' });
  await call('/relate', { entity_a: 'Anna', entity_b: 'kitchen', rel_type: 'cooks_in', entity_b_type: 'room' });
  await call('/relate', { entity_a: 'Rex', entity_b: 'living room', rel_type: 'sleeps_in', entity_b_type: 'room' });
  const located: [string, string, string?][] = [
    ['car keys', 'hall drawer'],
    ['spare key', 'hall drawer'],
    ['Rex’s lead', 'hallway', 'room'],
    ['hall drawer', 'hallway', 'room'],
    ['passport', 'blue box'],
    ['blue box', 'study', 'room'],
    ['reading glasses', 'living room', 'room'],
  ];
  for (const [entity_name, container_name, container_type] of located)
    await call('/locate', { entity_name, container_name, ...(container_type && { container_type }), source: 'user' });
  const readings = [];
  for (let i = 0; i < 96; i++) {
    const ts = now - (96 - i) * 900;
    const hour = ((ts / 3600) % 24) / 24;
    readings.push({
      entity_name: 'sensor.kitchen_temperature',
      metric: 'temperature',
      value: Math.round((20 + 2.5 * Math.sin(hour * 2 * Math.PI - 1.8)) * 10) / 10,
      unit: '°C',
      ts,
      source: 'screenshots',
    });
    readings.push({
      entity_name: 'bedroom',
      metric: 'humidity',
      value: Math.round(48 + 6 * Math.cos(i / 9)),
      unit: '%',
      ts,
      source: 'screenshots',
    });
    if (i % 4 === 0)
      readings.push({
        entity_name: 'sensor.kitchen_energy',
        metric: 'energy',
        value: Math.round(i * 0.21 * 100) / 100,
        unit: 'kWh',
        ts,
        source: 'screenshots',
      });
    if (i % 8 === 0)
      readings.push({ entity_name: 'wifi', metric: 'clients', value: 4 + (i % 3), ts, source: 'screenshots' });
  }
  // A garage door over a week (Zigbee2MQTT's contact: false is open): mornings, evenings, and last night late.
  const day0 = now - (now % 86_400);
  const door: { entity_name: string; metric: string; value: boolean; ts: number; source: string }[] = [];
  for (let d = 6; d >= 0; d--) {
    const opens: [number, number][] = [
      [7.5 + (d % 3) * 0.25, 0.05],
      [18 + (d % 2) * 0.5, 0.2],
    ];
    if (d === 1) opens.push([22.5, 1.4]);
    for (const [at, hours] of opens) {
      const ts = day0 - d * 86_400 + Math.round(at * 3600);
      if (ts + hours * 3600 > now) continue;
      door.push({ entity_name: 'garage_door', metric: 'contact', value: false, ts, source: 'screenshots' });
      door.push({
        entity_name: 'garage_door',
        metric: 'contact',
        value: true,
        ts: ts + Math.round(hours * 3600),
        source: 'screenshots',
      });
    }
  }
  await call('/record/bulk', { readings: [...readings, ...door] });
  await call('/record', { entity_name: 'sensor.hallway_motion', metric: 'motion', value: 1, source: 'screenshots' });
  await call('/intend', {
    entity_name: 'Brian',
    trigger_text: 'when Brian mentions groceries',
    action_text: 'remind him the oat milk is running low',
  });
  await call('/intend', {
    entity_name: 'Mia',
    trigger_text: 'when Mia gets home on Wednesday',
    action_text: 'ask how swimming went',
  });
  await call('/schedule', {
    entity_name: 'Mia',
    title: 'Swimming lesson',
    start_ts: now + 2 * 86_400,
    recurrence: 'FREQ=WEEKLY;BYDAY=WE',
  });
  await call('/wm/open', { task_name: 'plan Mia’s birthday party', entity_name: 'Anna' });
  const session = await call('/open_session', { entity_name: 'Brian' });
  await call('/log_turn', {
    session_id: session.session_id,
    role: 'user',
    content: 'Can you remind me to buy oat milk when I go shopping?',
  });
  await call('/log_turn', {
    session_id: session.session_id,
    role: 'assistant',
    content: 'Sure — I will remind you when you mention groceries.',
  });
  await call('/close_session', {
    session_id: session.session_id,
    summary: 'Brian asked for an oat-milk reminder at the shops.',
  });
  await call('/voices/identify', { embedding: Array.from({ length: 16 }, (_, i) => Math.sin(i + 1)), room: 'kitchen' });
}

async function shoot(ctx: BrowserContext, origin: string, out: string, label: string, only: Set<string> | null) {
  const page = await ctx.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    // 404: a page not built yet (skipped); 401: the login form itself, shown in place of the page.
    if ((m.type() === 'error' || m.type() === 'warning') && !/status of 40[14]/.test(m.text()))
      problems.push(`${page.url()}: ${m.text()}`);
  });
  await page.goto(`${origin}/admin/`);
  if (!only || only.has('login')) await page.screenshot({ path: join(out, `admin-${label}-login.png`) });
  await page.fill('input[name=token]', TOKEN);
  await Promise.all([page.waitForURL(`${origin}/admin/`), page.click('button[type=submit]')]);
  for (const p of PAGES) {
    if (only && !only.has(p.name)) continue;
    const res = await page.goto(origin + p.path);
    if (res?.status() === 404) {
      console.log(`${label} ${p.name}: ${p.path} answers 404, skipped`);
      continue;
    }
    if (p.wait) await page.waitForSelector(p.wait, { timeout: 15_000 });
    if (p.name.startsWith('graph')) await page.locator('#graph').scrollIntoViewIfNeeded();
    if (p.prep === 'menu' && label === 'phone') await page.click('.menu-button');
    if (p.prep === 'menu' && label === 'desktop') await page.click('details.more > summary');
    if (p.prep === 'ask') {
      await page.fill('section.ask input[name=question]', 'Was the garage door open last night?');
      await page.click('section.ask button[data-action=ask]');
      await page.waitForSelector('#ask-answer p.said', { timeout: 15_000 });
    }
    await page.waitForTimeout(150);
    const file = join(out, `admin-${label}-${p.name}.png`);
    await page.screenshot({
      path: file,
      fullPage: !p.name.startsWith('graph') && p.prep !== 'menu' && p.prep !== 'ask',
    });
    console.log(`${label} ${p.name}: ${file}`);
  }
  if (label === 'phone' && (!only || only.has('corrected'))) {
    // A fact corrected on a phone: Brian's coffee, edited in place (skipped if the page's form changed).
    try {
      await page.goto(`${origin}/admin/entity/Brian`);
      const row = page.locator('tr', { has: page.locator('td.fact', { hasText: 'coffee black' }) });
      await row.locator('summary', { hasText: 'Edit' }).click({ timeout: 5000 });
      await row.locator('textarea[name=fact]').fill('Brian takes his coffee with a dash of oat milk');
      await Promise.all([page.waitForEvent('framenavigated'), row.locator('button[data-action=edit]').click()]);
      await page.waitForLoadState('load');
      await page.screenshot({ path: join(out, 'admin-phone-corrected.png'), fullPage: true });
      console.log(`phone corrected: ${join(out, 'admin-phone-corrected.png')}`);
    } catch (e) {
      console.log(`phone corrected: skipped (${(e as Error).message.split('\n')[0]})`);
    }
  }
  await page.close();
  return problems;
}

async function main() {
  const args = parseArgs({ options: { out: { type: 'string' }, only: { type: 'string' } } }).values;
  const out = resolve(args.out ?? join(root(), 'docs', 'img'));
  const only = args.only ? new Set(args.only.split(',')) : null;
  mkdirSync(out, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'hearth-screenshots-'));
  const config = parseConfig({
    data_dir: join(dir, 'data'),
    http: { port: 0, host: '127.0.0.1', token: TOKEN, rate_limit_per_minute: 0 },
    mqtt: { mode: 'off' },
  });
  const hub = await createHub({
    config,
    ai: { embedder: createLocalEmbedder(), llm: null },
    logger: false,
    scheduler: false,
  });
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const origin = (await hub.start()).http!;
    await household(origin);
    const problems: string[] = [];
    for (const [label, viewport] of [
      ['phone', { width: 390, height: 844 }],
      ['desktop', { width: 1280, height: 800 }],
    ] as const) {
      const ctx = await browser.newContext({
        viewport,
        deviceScaleFactor: 1,
        ...(label === 'phone' && { isMobile: true, hasTouch: true }),
        locale: 'en-GB',
        timezoneId: 'Europe/London',
      });
      problems.push(...(await shoot(ctx, origin, out, label, only)));
      await ctx.close();
    }
    if (problems.length) console.log(`console errors and warnings:\n${problems.join('\n')}`);
  } finally {
    await browser.close();
    await hub.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
