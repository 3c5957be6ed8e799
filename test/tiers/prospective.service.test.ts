import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalEmbedder } from '../../src/ai/local-embedder.js';
import type { Embedder } from '../../src/ai/types.js';
import sql from '../../src/db/migrations/005-prospective-spatial.js';
import { openDatabase, type Db } from '../../src/db/open.js';
import { manualClock, type ManualClock } from '../../src/lib/clock.js';
import { HubError } from '../../src/lib/errors.js';
import { createHubEvents } from '../../src/services/events.js';
import { createAuditRepo } from '../../src/tiers/audit/audit.repo.js';
import { createEntitiesRepo } from '../../src/tiers/entities/entities.repo.js';
import * as P from '../../src/tiers/prospective/prospective.schemas.js';
import { createProspectiveService, type ProspectiveService } from '../../src/tiers/prospective/prospective.service.js';

let dir: string;
let db: Db;
let clock: ManualClock;
let fired: unknown[];

function service(embedder: Embedder | null = createLocalEmbedder()): ProspectiveService {
  const events = createHubEvents();
  events.on('intention_triggered', (p) => fired.push(p));
  return createProspectiveService({
    db,
    clock,
    embedder,
    entities: createEntitiesRepo(db, clock),
    audit: createAuditRepo(db, clock),
    onTriggered: (t) => events.emit('intention_triggered', t),
  });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hearth-prospective-'));
  db = openDatabase({ dataDir: dir });
  // Until the migration list includes 005, apply it here.
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'intentions'").get()) db.exec(sql);
  clock = manualClock();
  fired = [];
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const intend = (s: ProspectiveService, input: Record<string, unknown>) => s.intend(P.IntendInput.parse(input), 'http');
const check = (s: ProspectiveService, text: string, entity_name?: string) =>
  s.check(P.CheckIntentionsInput.parse({ text, entity_name }), 'http');
const list = (s: ProspectiveService, input: Record<string, unknown> = {}) => s.list(P.ListIntentionsInput.parse(input));
const ANNA_HOME = {
  entity_name: 'Brian',
  trigger_text: 'when Anna gets home',
  action_text: 'remind her to call the plumber',
};

describe('prospective memory', () => {
  it('a once intention fires exactly once, is counted, audited and published', async () => {
    const s = service();
    const { id } = await intend(s, ANNA_HOME);
    const first = await check(s, 'Anna just got home');
    expect(first.triggered).toEqual([
      {
        id,
        entity_name: 'Brian',
        trigger_text: ANNA_HOME.trigger_text,
        action_text: ANNA_HOME.action_text,
        score: expect.any(Number),
      },
    ]);
    expect(first.triggered[0].score).toBeGreaterThanOrEqual(0.6);
    expect(first.result).toContain('call the plumber');
    expect((await check(s, 'Anna just got home')).triggered).toEqual([]);
    expect(list(s).intentions).toEqual([]);
    expect(list(s, { active_only: 'false' }).intentions[0]).toMatchObject({
      id,
      status: 'fired',
      fired_count: 1,
      last_fired: clock.now(),
      active: false,
    });
    expect(fired).toEqual([first.triggered[0]]);
    const ops = db.prepare('SELECT op, actor FROM audit ORDER BY id').all();
    expect(ops).toEqual([
      { op: 'intention.add', actor: 'http' },
      { op: 'intention.fire', actor: 'http' },
    ]);
  });

  it('a repeating intention fires each time and counts', async () => {
    const s = service();
    const { id } = await intend(s, { ...ANNA_HOME, once: false });
    for (let i = 0; i < 3; i++) {
      clock.advance(3600);
      expect((await check(s, "Anna's home!")).triggered.map((t) => t.id)).toEqual([id]);
    }
    expect(list(s).intentions[0]).toMatchObject({ id, status: 'active', fired_count: 3, last_fired: clock.now() });
    expect(fired).toHaveLength(3);
  });

  it('never fires an expired intention, and refuses one that expires in the past', async () => {
    const s = service();
    const { id } = await intend(s, { ...ANNA_HOME, expires_ts: clock.now() + 3600 });
    clock.advance(7200);
    expect((await check(s, 'Anna just got home')).triggered).toEqual([]);
    expect(list(s).intentions).toEqual([]);
    expect(list(s, { active_only: false }).intentions[0]).toMatchObject({ id, status: 'expired', fired_count: 0 });
    await expect(intend(s, { ...ANNA_HOME, expires_ts: clock.now() - 1 })).rejects.toMatchObject({
      code: 'invalid',
      message: /^expires_ts/,
    });
    const iso = await intend(s, { ...ANNA_HOME, expires_ts: new Date((clock.now() + 60) * 1000).toISOString() });
    expect((await check(s, 'Anna just got home')).triggered.map((t) => t.id)).toEqual([iso.id]);
  });

  it('never fires a dismissed intention; dismissing is idempotent and audited', async () => {
    const s = service();
    const { id } = await intend(s, ANNA_HOME);
    expect(s.dismiss(P.DismissIntentionInput.parse({ intention_id: id }), 'mcp')).toMatchObject({ dismissed: true });
    expect(s.dismiss(P.DismissIntentionInput.parse({ id }), 'mcp')).toMatchObject({ dismissed: false });
    expect((await check(s, 'Anna just got home')).triggered).toEqual([]);
    expect(list(s, { active_only: false }).intentions[0].status).toBe('dismissed');
    expect(() => s.dismiss({ intention_id: 999 })).toThrow(HubError);
    expect(P.DismissIntentionInput.safeParse({}).success).toBe(false);
    expect(db.prepare("SELECT count(*) AS n FROM audit WHERE op = 'intention.dismiss'").get()).toEqual({ n: 1 });
  });

  it('filters by entity', async () => {
    const s = service();
    const brian = await intend(s, ANNA_HOME);
    const anna = await intend(s, {
      entity_name: 'Anna',
      trigger_text: 'when I get home',
      action_text: 'water the plants',
    });
    const out = await check(s, 'Anna just got home', 'Anna');
    expect(out.triggered.map((t) => t.id)).toEqual([anna.id]);
    expect((await check(s, 'Anna just got home', 'Brian')).triggered.map((t) => t.id)).toEqual([brian.id]);
    expect(await check(s, 'Anna just got home', 'Nobody')).toMatchObject({
      triggered: [],
      warnings: ['no entity named "Nobody"'],
    });
    expect(list(s, { entity_name: 'Anna', active_only: 'false' }).intentions.map((i) => i.id)).toEqual([anna.id]);
    expect(() => list(s, { entity_name: 'Nobody' })).toThrow(/entity_name/);
  });

  it('treats FTS syntax in texts and triggers as plain words', async () => {
    const s = service();
    const { id } = await intend(s, ANNA_HOME);
    const hostile = [
      '"',
      '"Anna" OR home*',
      'NEAR(anna home, 2)',
      'anna:home',
      '*',
      '-home',
      '^anna',
      'home AND',
      '(((',
      "'; DROP TABLE intentions; --",
      'trigger_text MATCH x',
      '🙂🙂',
      '""""',
    ];
    for (const text of hostile) await expect(check(s, text), text).resolves.toHaveProperty('triggered');
    const odd = await intend(s, {
      entity_name: 'Brian',
      trigger_text: 'when NEAR("printer" OR * jams',
      action_text: 'unplug it',
      once: false,
    });
    expect((await check(s, 'the printer jams near the window')).triggered.map((t) => t.id)).toEqual([odd.id]);
    await expect(intend(s, { ...ANNA_HOME, trigger_text: '"" * ()' })).rejects.toMatchObject({ code: 'invalid' });
    expect(list(s, { active_only: false }).intentions.map((i) => i.id)).toContain(id);
  });

  // Labelled by what a person would expect; eval/intentions.json has the full set and hit rates.
  const INTENTIONS = [
    ANNA_HOME,
    { entity_name: 'Brian', trigger_text: "when I'm at the grocery store", action_text: 'buy milk' },
    {
      entity_name: 'Anna',
      trigger_text: 'when the washing machine finishes',
      action_text: 'move the laundry to the dryer',
    },
    {
      entity_name: 'Anna',
      trigger_text: 'when someone mentions the car',
      action_text: 'the car is due for an oil change',
    },
    { entity_name: 'Anna', trigger_text: 'when Mom calls', action_text: 'tell her about Lisbon' },
  ];
  const fires = async (text: string) => {
    const s = service();
    const ids = [];
    for (const i of INTENTIONS) ids.push((await intend(s, { ...i, once: false })).id);
    return (await check(s, text)).triggered.map((t) => INTENTIONS[ids.indexOf(t.id)].trigger_text);
  };
  it.each([
    ['Anna just got home', 'when Anna gets home'],
    ["Anna's home!", 'when Anna gets home'],
    ['Hey, Anna is back home now', 'when Anna gets home'],
    ["I'm at the grocery store", "when I'm at the grocery store"],
    ['The washing machine has finished', 'when the washing machine finishes'],
    ['The car is making a weird noise', 'when someone mentions the car'],
    ['Mom is calling', 'when Mom calls'],
  ])('fires: %s', async (text, trigger) => expect(await fires(text)).toEqual([trigger]));
  it.each([
    'Anna is at work',
    'The dog came home',
    'Brian got home',
    "Anna isn't home yet",
    'Anna left home an hour ago',
    'The grocery list is on the fridge',
    "The washing machine hasn't finished yet",
    "Mom's birthday is next week",
    'Turn on the kitchen lights',
    "What's for dinner?",
    // the trigger's object without its event (two of three words: below keywordMin 0.7)
    'I bought a new washing machine',
    // the event at another time: a report or a plan, not what is happening
    'Anna got home late yesterday',
    'Anna will be home tomorrow evening',
    "I'll be at the grocery store on Saturday",
  ])('stays quiet: %s', async (text) => expect(await fires(text)).toEqual([]));
  it('works without an embedder and survives a failing one, re-embedding later', async () => {
    let calls = 0;
    const failing: Embedder = {
      ...createLocalEmbedder(),
      embed: async () => {
        calls++;
        throw new Error('connection refused');
      },
    };
    const broken = service(failing);
    const { id, warnings } = await intend(broken, ANNA_HOME);
    expect(warnings[0]).toMatch(/connection refused/);
    expect(db.prepare('SELECT embedding FROM intentions WHERE id = ?').get(id)).toEqual({ embedding: null });
    const out = await check(broken, 'Anna just got home');
    expect(out.triggered.map((t) => t.id)).toEqual([id]);
    expect(out.warnings.join()).toMatch(/keyword matching only/);
    expect(calls).toBe(2); // one per intend and one per check: an outage costs one timeout, not one per trigger

    const healthy = service();
    const again = await intend(healthy, { ...ANNA_HOME, once: false });
    db.prepare('UPDATE intentions SET embedding = NULL, embed_model = ? WHERE id = ?').run('other-model:768', again.id);
    expect((await check(healthy, 'Anna is back home')).triggered.map((t) => t.id)).toEqual([again.id]);
    expect(db.prepare('SELECT embed_model FROM intentions WHERE id = ?').get(again.id)).toEqual({
      embed_model: `${createLocalEmbedder().fingerprint}#event`,
    });
    expect((await check(service(null), 'Anna got home')).warnings).toEqual([
      'no embedder configured: keyword matching only',
    ]);
  });

  it('fires a once intention only once under concurrent checks', async () => {
    const s = service();
    const { id } = await intend(s, ANNA_HOME);
    const outs = await Promise.all([
      check(s, 'Anna just got home'),
      check(s, 'Anna got home'),
      check(s, 'Anna is home'),
    ]);
    expect(outs.flatMap((o) => o.triggered.map((t) => t.id))).toEqual([id]);
    expect(list(s, { active_only: false }).intentions[0].fired_count).toBe(1);
  });

  it('drops intentions and their index rows with a forgotten entity; ids are never reused', async () => {
    const s = service();
    const { id } = await intend(s, ANNA_HOME);
    db.prepare('DELETE FROM entities WHERE name = ?').run('Brian');
    expect(db.prepare('SELECT count(*) AS n FROM intention_fts').get()).toEqual({ n: 0 });
    const next = await intend(s, ANNA_HOME);
    expect(next.id).toBeGreaterThan(id);
    expect((await check(s, 'Anna just got home')).triggered.map((t) => t.id)).toEqual([next.id]);
  });
});

describe('the vector path fires only a trigger the text is about more than any other', () => {
  // Hand-made vectors: "the baby falls asleep" and "I go to bed" sit at cosine 0.8 to each other.
  const unit = (...xs: number[]) => {
    const n = Math.hypot(...xs);
    return Float32Array.from(xs, (x) => x / n);
  };
  const table: [string, Float32Array][] = [
    ['baby', unit(1, 0, 0)],
    ['bed', unit(0.8, 0.6, 0)],
    ['snoozing', unit(0.7, 0.2, Math.sqrt(1 - 0.49 - 0.04))], // 0.70 to the baby, 0.68 to bed: no lead
    ['napping', unit(0.7, -0.5, Math.sqrt(1 - 0.49 - 0.25))], // 0.70 to the baby, 0.26 to bed
  ];
  const stub: Embedder = {
    provider: 'use-lite',
    model: 'stub',
    dim: 3,
    fingerprint: 'stub:3',
    embed: async (texts) => texts.map((t) => table.find(([w]) => t.includes(w))?.[1] ?? unit(0, 0, 1)),
    ping: async () => true,
  };

  it('a paraphrase close to two triggers fires neither; one that leads fires its own', async () => {
    const s = service(stub);
    await intend(s, {
      entity_name: 'Grace',
      trigger_text: 'when the baby falls asleep',
      action_text: 'start the dishwasher',
      once: false,
    });
    await intend(s, {
      entity_name: 'Grace',
      trigger_text: 'when I go to bed',
      action_text: 'lock the back door',
      once: false,
    });
    expect((await check(s, 'the little one is snoozing')).triggered).toEqual([]);
    expect((await check(s, 'the little one is napping')).triggered.map((t) => t.action_text)).toEqual([
      'start the dishwasher',
    ]);
  });
});
