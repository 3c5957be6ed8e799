import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLocalEmbedder } from '../../src/ai/local-embedder.js';
import migration from '../../src/db/migrations/004-episodic-working.js';
import { openDatabase, type Db } from '../../src/db/open.js';
import { createVectorStore } from '../../src/db/vectors.js';
import { manualClock, type ManualClock } from '../../src/lib/clock.js';
import { HubError } from '../../src/lib/errors.js';
import { createAuditRepo } from '../../src/tiers/audit/audit.repo.js';
import type { Actor } from '../../src/tiers/audit/audit.repo.js';
import { createEntitiesRepo } from '../../src/tiers/entities/entities.repo.js';
import type { RememberInput } from '../../src/tiers/memory/memory.schemas.js';
import { createMemoryService, type MemoryService } from '../../src/tiers/memory/memory.service.js';
import * as W from '../../src/tiers/working/working.schemas.js';
import { createWorkingService, type WorkingService } from '../../src/tiers/working/working.service.js';

let dir: string;
let db: Db;
let clock: ManualClock;
let memory: MemoryService;
let wm: WorkingService;
/** Every call the working-memory service made to remember (the real memory service answers). */
let calls: { input: RememberInput; actor: Actor }[];

const count = (sql: string, ...p: unknown[]) => (db.prepare(sql).get(...p) as { n: number }).n;
const openTask = (x: Record<string, unknown>) => wm.wmOpen(W.WmOpenInput.parse(x), 'http');
const set = (task_id: number, key: string, value: unknown) =>
  wm.wmSet(W.WmSetInput.parse({ task_id, key, value }), 'mcp');
const list = (x: Record<string, unknown> = {}) => wm.wmList(W.WmListInput.parse(x));
const closeTask = (x: Record<string, unknown>) => wm.wmClose(W.WmCloseInput.parse(x), 'mcp');

async function expectHubError(fn: () => unknown, code: string, field: string) {
  const e = await (async () => fn())().then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(HubError);
  expect((e as HubError).code).toBe(code);
  expect((e as HubError).message).toMatch(new RegExp(`^${field}:`));
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hearth-working-'));
  clock = manualClock();
  db = openDatabase({ dataDir: dir });
  // Applied here until the migration is listed in MIGRATIONS (then openDatabase already did).
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'working_memory_tasks'").get()) db.exec(migration);
  const entities = createEntitiesRepo(db, clock);
  const audit = createAuditRepo(db, clock);
  const embedder = createLocalEmbedder();
  memory = createMemoryService({
    db,
    clock,
    embedder,
    vectors: createVectorStore(db, embedder),
    entities,
    audit,
    config: { trust_default_remember: 5, decay_halflife_days: 90, decay_category_halflife: {} },
  });
  calls = [];
  wm = createWorkingService({
    db,
    clock,
    entities,
    audit,
    remember: (input, actor) => {
      calls.push({ input, actor });
      return memory.remember(input, actor);
    },
  });
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('slots', () => {
  it('opens a task, sets and overwrites slots of any JSON, and reads one or all', () => {
    const t = openTask({ task_name: "plan Maya's birthday", entity_name: 'Maya' });
    expect(t).toMatchObject({ entity_name: 'Maya', ttl_ts: null });
    expect(set(t.task_id, 'guests', 10).created).toBe(true);
    clock.advance(5);
    expect(set(t.task_id, 'guests', 12).created).toBe(false);
    set(t.task_id, 'menu', { cake: 'chocolate', drinks: ['juice', 'water'] });
    const one = wm.wmGet(W.WmGetInput.parse({ task_id: '1', key: 'guests' }));
    expect(one.slot).toMatchObject({ key: 'guests', value: 12, updated: one.slot!.created + 5 });
    const all = wm.wmGet(W.WmGetInput.parse({ task_id: t.task_id }));
    expect(all.task).toMatchObject({
      task_id: t.task_id,
      task_name: "plan Maya's birthday",
      entity_name: 'Maya',
      status: 'open',
      slot_count: 2,
    });
    expect(all.slots!.map((s) => [s.key, s.value])).toEqual([
      ['guests', 12],
      ['menu', { cake: 'chocolate', drinks: ['juice', 'water'] }],
    ]);
    expect(all.result).toContain('guests = 12; menu = {"cake":"chocolate"');
    const audit = db.prepare("SELECT actor, op, before FROM audit WHERE op LIKE 'wm.%' ORDER BY id").all() as {
      actor: string;
      op: string;
      before: string | null;
    }[];
    expect(audit.map((a) => `${a.actor} ${a.op}`)).toEqual(['http wm.open', 'mcp wm.set', 'mcp wm.set', 'mcp wm.set']);
    expect(JSON.parse(audit[2].before!)).toEqual({ key: 'guests', value: 10 });
  });

  it('answers 404 naming the field for a missing task or key', async () => {
    const t = openTask({ task_name: 'groceries' });
    await expectHubError(() => wm.wmGet({ task_id: 99 }), 'not_found', 'task_id');
    await expectHubError(() => wm.wmGet({ task_id: t.task_id, key: 'milk' }), 'not_found', 'key');
    await expectHubError(() => set(99, 'milk', 1), 'not_found', 'task_id');
  });

  it('requires a value and bounds its size at the schema (which still renders to JSON Schema)', () => {
    expect(W.WmSetInput.safeParse({ task_id: 1, key: 'k' }).success).toBe(false);
    expect(W.WmSetInput.safeParse({ task_id: 1, key: 'k', value: null }).success).toBe(true);
    expect(W.WmSetInput.safeParse({ task_id: 1, key: 'k', value: 'x'.repeat(W.MAX_VALUE_CHARS) }).success).toBe(false);
    for (const s of [W.WmOpenInput, W.WmSetInput, W.WmGetInput, W.WmListInput, W.WmCloseInput])
      expect(() => z.toJSONSchema(s, { io: 'input' })).not.toThrow();
  });
});

describe('expiry', () => {
  it('reports a task past its TTL as expired on read, before and after expireDue', async () => {
    const t = openTask({ task_name: 'find a plumber', entity_name: 'Brian', ttl_seconds: 3600 });
    expect(t.ttl_ts).toBe(clock.now() + 3600);
    set(t.task_id, 'quote', 120);
    clock.advance(3599);
    expect(list().tasks.map((x) => x.task_id)).toEqual([t.task_id]);

    clock.advance(1);
    expect(wm.wmGet({ task_id: t.task_id }).task).toMatchObject({ status: 'expired', closed_at: t.ttl_ts });
    expect(list().tasks).toEqual([]);
    expect(list({ status: 'expired' }).tasks.map((x) => x.task_id)).toEqual([t.task_id]);
    await expectHubError(() => set(t.task_id, 'quote', 100), 'conflict', 'task_id');
    expect(new HubError('conflict', '').status).toBe(409);
    expect(count("SELECT count(*) n FROM working_memory_tasks WHERE status = 'open'")).toBe(1); // reads never write

    const swept = wm.expireDue();
    expect(swept).toMatchObject({ expired: 1, task_ids: [t.task_id] });
    expect(wm.expireDue().expired).toBe(0);
    expect(db.prepare('SELECT status, closed_at FROM working_memory_tasks WHERE id = ?').get(t.task_id)).toEqual({
      status: 'expired',
      closed_at: t.ttl_ts,
    });
    expect(db.prepare("SELECT actor FROM audit WHERE op = 'wm.expire'").all()).toEqual([{ actor: 'scheduler' }]);
    // Slots are kept until pruned.
    expect(wm.wmGet({ task_id: t.task_id }).slots).toEqual([expect.objectContaining({ key: 'quote', value: 120 })]);
    await expectHubError(() => set(t.task_id, 'quote', 100), 'conflict', 'task_id');
  });

  it('expireDue leaves tasks without a TTL or not yet due, and prune removes long-ended tasks with their slots', () => {
    const forever = openTask({ task_name: 'forever' });
    const soon = openTask({ task_name: 'soon', ttl_seconds: 60 });
    const later = openTask({ task_name: 'later', ttl_seconds: 86_400 });
    set(soon.task_id, 'a', 1);
    clock.advance(120);
    expect(wm.expireDue().task_ids).toEqual([soon.task_id]);
    expect(
      list()
        .tasks.map((x) => x.task_id)
        .sort(),
    ).toEqual([forever.task_id, later.task_id].sort());
    clock.advance(31 * 86_400);
    expect(wm.prune(30)).toMatchObject({ deleted: 1 }); // `later` expired 30 days ago only now: not swept, not pruned
    expect(count('SELECT count(*) n FROM working_memory_slots')).toBe(0);
    expect(
      list({ status: 'all' })
        .tasks.map((x) => x.task_name)
        .sort(),
    ).toEqual(['forever', 'later']);
  });
});

describe('wm_list', () => {
  it('filters by status and entity, newest first', async () => {
    const a = openTask({ task_name: 'birthday', entity_name: 'Maya' });
    clock.advance(1);
    const b = openTask({ task_name: 'homework', entity_name: 'Maya', ttl_seconds: 10 });
    clock.advance(1);
    const c = openTask({ task_name: 'car service', entity_name: 'Brian' });
    clock.advance(1);
    await closeTask({ task_id: c.task_id });
    clock.advance(20);
    const ids = (x: Record<string, unknown>) => list(x).tasks.map((t) => t.task_id);
    expect(ids({})).toEqual([a.task_id]);
    expect(ids({ status: 'closed' })).toEqual([c.task_id]);
    expect(ids({ status: 'expired' })).toEqual([b.task_id]);
    expect(ids({ status: 'all' })).toEqual([c.task_id, b.task_id, a.task_id]);
    expect(ids({ status: 'all', entity_name: 'maya' })).toEqual([b.task_id, a.task_id]);
    expect(ids({ status: 'all', entity_name: 'Nobody' })).toEqual([]);
    expect(ids({ status: 'all', limit: '1' })).toEqual([c.task_id]);
    expect(list({ status: 'all' }).result).toContain(`${b.task_id} 'homework' (expired, Maya, 0 slots)`);
    expect(W.WmListInput.safeParse({ status: 'done' }).success).toBe(false);
  });
});

describe('wm_unset', () => {
  const unset = (task_id: number, key: string) => wm.wmUnset(W.WmUnsetInput.parse({ task_id, key }), 'mcp');
  const audits = (op: string) => count('SELECT count(*) n FROM audit WHERE op = ?', op);

  it('removes one slot (what it held in the answer and the audit log), and a key it does not hold changes nothing', async () => {
    const t = openTask({ task_name: 'groceries' });
    set(t.task_id, 'milk', 2);
    set(t.task_id, 'eggs', 6);
    const r = unset(t.task_id, 'milk');
    expect(r).toMatchObject({ task_id: t.task_id, key: 'milk', removed: true, value: 2 });
    expect(r.result).toContain('Removed milk');
    expect(wm.wmGet({ task_id: t.task_id }).slots!.map((x) => x.key)).toEqual(['eggs']);
    expect(audits('wm.unset')).toBe(1);
    const again = unset(t.task_id, 'milk');
    expect(again).toMatchObject({ removed: false });
    expect(again).not.toHaveProperty('value');
    expect(audits('wm.unset')).toBe(1);
    await expectHubError(() => unset(t.task_id + 100, 'eggs'), 'not_found', 'task_id');
  });

  it('refuses a closed task, which keeps its slots', async () => {
    const t = openTask({ task_name: 'party' });
    set(t.task_id, 'guests', 12);
    await closeTask({ task_id: t.task_id });
    await expectHubError(() => unset(t.task_id, 'guests'), 'conflict', 'task_id');
    expect(wm.wmGet({ task_id: t.task_id, key: 'guests' }).slot).toMatchObject({ value: 12 });
  });
});

describe('wm_close', () => {
  it('closes without promoting by default, and refuses a second close or later writes', async () => {
    const t = openTask({ task_name: 'groceries' });
    set(t.task_id, 'milk', 2);
    const c = await closeTask({ task_id: t.task_id });
    expect(c).toMatchObject({ promoted_memory_id: null, closed_at: clock.now() });
    expect(calls).toEqual([]);
    expect(count('SELECT count(*) n FROM memories')).toBe(0);
    await expectHubError(() => closeTask({ task_id: t.task_id, promote: true }), 'conflict', 'task_id');
    await expectHubError(() => set(t.task_id, 'eggs', 6), 'conflict', 'task_id');
    expect(list({ status: 'closed' }).tasks).toHaveLength(1);
  });

  it('promote writes exactly one trust-2 general memory about the task entity summarising the slots', async () => {
    const t = openTask({ task_name: "plan Maya's birthday", entity_name: 'Maya' });
    set(t.task_id, 'guests', 12);
    set(t.task_id, 'venue', 'the park');
    set(t.task_id, 'cake', 'chocolate');
    const c = await closeTask({ task_id: t.task_id, promote: 'true' });

    const fact = "Task 'plan Maya's birthday': guests = 12; venue = the park; cake = chocolate";
    expect(calls).toHaveLength(1);
    expect(calls[0].actor).toBe('mcp');
    expect(calls[0].input).toMatchObject({
      entity_name: 'Maya',
      fact,
      category: 'general',
      source_trust: 2,
      source: 'working_memory',
    });
    expect(count('SELECT count(*) n FROM memories')).toBe(1);
    const m = memory.repo.get(c.promoted_memory_id!)!;
    expect(m).toMatchObject({ entity_name: 'Maya', fact, category: 'general', source_trust: 2, status: 'active' });
    expect(wm.wmGet({ task_id: t.task_id }).task).toMatchObject({ status: 'closed', promoted_memory_id: m.id });
    expect(c.result).toContain(`memory ${m.id}`);
    const recalled = await memory.recall({
      query: 'birthday cake',
      entity_name: 'Maya',
      top_k: 5,
      mode: 'keyword',
      recency_weight: 0.2,
      min_confidence: 0,
      min_trust: 0,
      include_superseded: false,
      explain: false,
    });
    expect(recalled.results.map((r) => r.id)).toEqual([m.id]);
  });

  it('promotes a task without an entity onto an entity named after the task, and an expired task may still close', async () => {
    const t = openTask({ task_name: 'garage clear-out', ttl_seconds: 60 });
    set(t.task_id, 'keep', ['bikes', 'tools']);
    clock.advance(61);
    const c = await closeTask({ task_id: t.task_id, promote: true });
    expect(calls).toHaveLength(1);
    expect(calls[0].input).toMatchObject({
      entity_name: 'garage clear-out',
      entity_type: 'task',
      source_trust: 2,
      category: 'general',
    });
    expect(calls[0].input.fact).toBe(`Task 'garage clear-out': keep = ["bikes","tools"]`);
    expect(db.prepare("SELECT type FROM entities WHERE name = 'garage clear-out'").get()).toEqual({ type: 'task' });
    expect(memory.repo.get(c.promoted_memory_id!)).toMatchObject({ source_trust: 2, category: 'general' });
  });

  it('promotes nothing when the task has no slots, and leaves the task open if remember fails', async () => {
    const empty = openTask({ task_name: 'nothing here' });
    const c = await closeTask({ task_id: empty.task_id, promote: '1' });
    expect(c).toMatchObject({ promoted_memory_id: null });
    expect(c.warnings[0]).toMatch(/nothing to promote/);
    expect(calls).toEqual([]);

    const t = openTask({ task_name: 'trip', entity_name: 'Anna' });
    set(t.task_id, 'where', 'Lisbon');
    const failing = createWorkingService({
      db,
      clock,
      entities: createEntitiesRepo(db, clock),
      audit: createAuditRepo(db, clock),
      remember: async () => {
        throw new HubError('unavailable', 'memory store is busy');
      },
    });
    await expect(failing.wmClose({ task_id: t.task_id, promote: true })).rejects.toThrow(/busy/);
    expect(wm.wmGet({ task_id: t.task_id }).task.status).toBe('open');
  });
});
