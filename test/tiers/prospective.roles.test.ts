/**
 * check_intentions and people named by role (issue #25, roles.ts): "my wife", "our youngest",
 * "Chidi's dad" resolve through the household's relations, in the checked text (the speaker is
 * `entity_name`) and in a trigger (the speaker is its owner). Keyword-only, so the role is what fires.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import sql from '../../src/db/migrations/005-prospective-spatial.js';
import { openDatabase, type Db } from '../../src/db/open.js';
import { manualClock } from '../../src/lib/clock.js';
import { createAuditRepo } from '../../src/tiers/audit/audit.repo.js';
import { createAliasesService } from '../../src/tiers/entities/aliases.service.js';
import { createAliasesRepo } from '../../src/tiers/entities/aliases.repo.js';
import { createEntitiesRepo } from '../../src/tiers/entities/entities.repo.js';
import { createRelationsService } from '../../src/tiers/memory/relations.service.js';
import * as P from '../../src/tiers/prospective/prospective.schemas.js';
import { createProspectiveService } from '../../src/tiers/prospective/prospective.service.js';

let dir: string;
let db: Db;
let svc: ReturnType<typeof createProspectiveService>;
let plain: ReturnType<typeof createProspectiveService>;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hearth-prospective-roles-'));
  db = openDatabase({ dataDir: dir });
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'intentions'").get()) db.exec(sql);
  const clock = manualClock();
  const entities = createEntitiesRepo(db, clock);
  const audit = createAuditRepo(db, clock);
  const relations = createRelationsService({ db, clock, entities, audit });
  for (const [a, rel_type, b] of [
    ['Chidi', 'spouse_of', 'Grace'],
    ['Grace', 'parent_of', 'Tomi'],
    ['Grace', 'parent_of', 'Ada'],
    ['Samuel', 'parent_of', 'Chidi'],
  ])
    relations.relate({ entity_a: a, rel_type, entity_b: b });
  entities.setTypeMeta(entities.get('Tomi').id, 'person', { age: 12 });
  entities.setTypeMeta(entities.get('Ada').id, 'person', { born: 2022 });
  const aliases = createAliasesService({ db, clock, entities, audit, repo: createAliasesRepo(db) });
  aliases.add({ entity_name: 'Samuel', alias: 'Grandad Samuel' });
  aliases.add({ entity_name: 'Samuel', alias: 'Grandad' });
  svc = createProspectiveService({ db, clock, entities, audit, embedder: null, relations });
  plain = createProspectiveService({ db, clock, entities, audit, embedder: null });
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const intend = async (entity_name: string, trigger_text: string) =>
  (await svc.intend(P.IntendInput.parse({ entity_name, trigger_text, action_text: 'do the thing', once: false }))).id;
const fired = async (s: typeof svc, text: string, entity_name?: string) =>
  (await s.check(P.CheckIntentionsInput.parse({ text, entity_name }))).triggered.map((t) => t.id);

describe('check_intentions with role words', () => {
  it('fires a trigger naming the person on a text naming them by role, and not for another role', async () => {
    const home = await intend('Chidi', 'when Grace gets home');
    expect(await fired(plain, 'My wife just got home', 'Chidi')).toEqual([]);
    expect(await fired(svc, 'My wife just got home', 'Chidi')).toEqual([home]);
    // Near misses: another role, the same words from someone with no wife, no speaker at all.
    expect(await fired(svc, 'My mum just got home', 'Chidi')).toEqual([]);
    expect(await fired(svc, 'My wife just got home', 'Tomi')).toEqual([]);
    expect(await fired(svc, 'My wife just got home')).toEqual([]);
  });

  it('resolves "X\'s dad" through a parent relation and the person\'s alias', async () => {
    const rings = await intend('Grace', 'when Grandad Samuel rings');
    expect(await fired(svc, "Chidi's dad rang, he's on the line", 'Grace')).toEqual([rings]);
    expect(await fired(svc, "Grace's dad rang, he's on the line", 'Grace')).toEqual([]);
  });

  it('counts a person\'s other names as said when the text names them by one ("Grandad" is Samuel)', async () => {
    const rings = await intend('Grace', 'when Grandad Samuel rings');
    expect(await fired(svc, "Grandad's ringing on the landline")).toEqual([rings]);
    expect(await fired(svc, "Samuel's ringing on the landline")).toEqual([rings]);
    expect(await fired(svc, "Tomi's ringing on the landline")).toEqual([]);
  });

  it('picks "our youngest" by age, and only when every child has one', async () => {
    const asleep = await intend('Grace', 'when Ada falls asleep');
    expect(await fired(svc, 'Our youngest has fallen asleep', 'Grace')).toEqual([asleep]);
    expect(await fired(svc, 'Our eldest has fallen asleep', 'Grace')).toEqual([]);
  });

  it('reads a trigger that names its person by role from its owner', async () => {
    const home = await intend('Chidi', 'when my wife gets home');
    expect(await fired(plain, 'Grace just got home')).toEqual([]);
    expect(await fired(svc, 'Grace just got home')).toEqual([home]);
    expect(await fired(svc, 'Ada just got home')).toEqual([]);
    // The reply shows the trigger as it was set, not as it was read.
    const r = await svc.check(P.CheckIntentionsInput.parse({ text: 'Grace just got home' }));
    expect(r.triggered[0].trigger_text).toBe('when my wife gets home');
  });
});
