import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { buildTestHub, tempDir, type TestHub } from '../helpers/hub.js';
import { RecallInput, RememberInput } from '../../src/tiers/memory/memory.schemas.js';
import { TOUCH_FLUSH_MS } from '../../src/tiers/memory/memory.service.js';
import { handMadeEmbedder, unitVector } from '../helpers/hand-made-embedder.js';

let hub: TestHub;
const remember = (x: Record<string, unknown>, actor: 'http' | 'mcp' = 'http') =>
  hub.services.memory.remember(RememberInput.parse(x), actor);
const recall = (x: Record<string, unknown>) => hub.services.memory.recall(RecallInput.parse(x));
const count = (sql: string, ...p: unknown[]) => (hub.db.prepare(sql).get(...p) as { n: number }).n;

beforeEach(async () => {
  hub = await buildTestHub();
});
afterEach(async () => {
  await hub.close();
});

describe('remember', () => {
  it('creates the entity on first reference and reports added', async () => {
    const r = await remember({
      entity_name: 'Brian',
      fact: 'Brian keeps the bedroom at 68°F at night',
      category: 'preference',
    });
    expect(r.action).toBe('added');
    const e = hub.services.entities.get('brian');
    expect(e.name).toBe('Brian');
    // No entity_type given: nothing invents one (test/tiers/entity-types.test.ts).
    expect(e.type).toBe('unknown');
    expect(r.entity_id).toBe(e.id);
    expect(count("SELECT count(*) n FROM memories WHERE embed_state = 'ok'")).toBe(1);
    expect(count('SELECT count(*) n FROM memory_vectors')).toBe(1);
  });

  it('supersedes by fact_key with equal or higher trust, keeping history', async () => {
    const a = await remember({
      entity_name: 'Brian',
      fact: 'Brian keeps the bedroom at 68°F at night',
      fact_key: 'bedroom_temp_night',
    });
    hub.clock.advance(3600);
    const b = await remember({
      entity_name: 'Brian',
      fact: 'Brian keeps the bedroom at 66°F at night',
      fact_key: 'bedroom_temp_night',
    });
    expect(b.action).toBe('superseded');
    expect(b.superseded).toBe(a.id);
    const old = hub.services.memory.get(a.id)!;
    expect(old.status).toBe('superseded');
    expect(old.superseded_by).toBe(b.id);
    expect(old.valid_until).toBe(hub.clock.now());

    const now = await recall({ query: 'bedroom temperature at night', entity_name: 'Brian' });
    expect(now.results.map((r) => r.id)).toEqual([b.id]);
    const all = await recall({ query: 'bedroom temperature at night', entity_name: 'Brian', include_superseded: true });
    expect(all.results.map((r) => r.id).sort()).toEqual([a.id, b.id].sort());
    const then = await recall({ query: 'bedroom temperature at night', as_of: hub.clock.now() - 1800 });
    expect(then.results.map((r) => r.id)).toEqual([a.id]);
  });

  it('keeps a lower-trust contradiction as contested, never as current', async () => {
    const user = await remember({
      entity_name: 'Brian',
      fact: 'Brian keeps the bedroom at 66°F at night',
      fact_key: 'bedroom_temp_night',
      source_trust: 'user',
    });
    const sensor = await remember({
      entity_name: 'Brian',
      fact: 'Brian keeps the bedroom at 70°F at night',
      fact_key: 'bedroom_temp_night',
      source_trust: 3,
      source: 'pattern_engine',
    });
    expect(sensor.action).toBe('contested');
    expect(sensor.superseded).toBe(user.id);
    expect(hub.services.memory.get(user.id)!.status).toBe('active');
    expect(hub.services.memory.get(sensor.id)!.status).toBe('contested');
    const current = await recall({ query: 'bedroom night temperature' });
    expect(current.results.map((r) => r.id)).toEqual([user.id]);
    const withContested = await recall({ query: 'bedroom night temperature', include_superseded: true });
    expect(withContested.results.map((r) => r.id)).toContain(sensor.id);
    // The same contested claim again is not a second row.
    const again = await remember({
      entity_name: 'Brian',
      fact: 'Brian keeps the bedroom at 70°F at night',
      fact_key: 'bedroom_temp_night',
      source_trust: 3,
    });
    expect(again.id).toBe(sensor.id);
    expect(count("SELECT count(*) n FROM memories WHERE status = 'contested'")).toBe(1);
  });

  it('reinforces a restated fact instead of adding a copy', async () => {
    const a = await remember({
      entity_name: 'Anna',
      fact: 'Anna drinks oat milk in her coffee',
      confidence: 0.6,
      category: 'preference',
    });
    hub.clock.advance(86400 * 10);
    const b = await remember({
      entity_name: 'anna',
      fact: 'Anna drinks oat milk in her coffee.',
      confidence: 0.9,
      category: 'preference',
    });
    expect(b.action).toBe('reinforced');
    expect(b.id).toBe(a.id);
    expect(count('SELECT count(*) n FROM memories')).toBe(1);
    const m = hub.services.memory.get(a.id)!;
    expect(m.confidence).toBe(0.9);
    expect(m.last_confirmed).toBe(hub.clock.now());
  });

  // 150 newer facts: all the kind's terms are read (≤ 400); 450: only those sharing a rarest term (FTS).
  it.each([150, 450])(
    'finds an old near-duplicate by its words among %i newer facts that share the common ones',
    async (newer) => {
      const first = await remember({
        entity_name: 'Brian',
        fact: 'Brian waters the tomato seedlings and the basil pots in the greenhouse every morning before breakfast',
        category: 'habit',
      });
      // newer facts of the same entity and category that share the common words (Brian, morning, every)
      for (let i = 0; i < newer; i++)
        await remember({ entity_name: 'Brian', fact: `Brian checks meter ${i} every morning`, category: 'habit' });
      // the same fact with one word changed: Jaccard 9/11 ≥ 0.8; only the keyword path can find it (not among the newest 100)
      const again = await remember({
        entity_name: 'Brian',
        fact: 'Brian waters the tomato seedlings and the basil pots in the greenhouse every morning before lunch',
        category: 'habit',
      });
      expect(again).toMatchObject({ action: 'reinforced', id: first.id });
    },
  );

  it('a fact stored without a key, then with a new fact_key, is one memory that takes the key', async () => {
    // README's remember, then docs/http-api.md's same fact with a key: no visible duplicate.
    const a = await remember({
      entity_name: 'Brian',
      fact: 'Brian keeps the bedroom at 68°F at night',
      category: 'preference',
    });
    const b = await remember({
      entity_name: 'Brian',
      fact: 'Brian keeps the bedroom at 68°F at night',
      category: 'preference',
      fact_key: 'bedroom_temp_night',
    });
    expect(b).toMatchObject({ action: 'reinforced', id: a.id });
    expect(hub.services.memory.get(a.id)!.fact_key).toBe('bedroom_temp_night');
    expect(count('SELECT count(*) n FROM memories')).toBe(1);
    // The key now supersedes it as any keyed fact would.
    const c = await remember({
      entity_name: 'Brian',
      fact: 'Brian keeps the bedroom at 66°F at night',
      category: 'preference',
      fact_key: 'bedroom_temp_night',
    });
    expect(c).toMatchObject({ action: 'superseded', superseded: a.id });
    // A fact under another key is another claim, even in the same words.
    await remember({ entity_name: 'Leo', fact: 'Leo naps after lunch', category: 'routine', fact_key: 'weekday_nap' });
    const d = await remember({
      entity_name: 'Leo',
      fact: 'Leo naps after lunch',
      category: 'routine',
      fact_key: 'weekend_nap',
    });
    expect(d.action).toBe('added');
  });

  it('does not treat a changed number or a negation as a duplicate', async () => {
    await remember({ entity_name: 'Leo', fact: 'Leo goes to bed at 7:30 pm', category: 'routine' });
    const b = await remember({ entity_name: 'Leo', fact: 'Leo goes to bed at 8:00 pm', category: 'routine' });
    expect(b.action).toBe('added');
    await remember({ entity_name: 'Maya', fact: 'Maya likes mushrooms on pizza', category: 'preference' });
    const d = await remember({
      entity_name: 'Maya',
      fact: "Maya doesn't like mushrooms on pizza",
      category: 'preference',
    });
    expect(d.action).toBe('added');
  });

  it('writes an audit row with the actor for each mutation', async () => {
    const r = await remember({ entity_name: 'Brian', fact: 'Brian is allergic to cats' }, 'mcp');
    hub.services.memory.forget({ memory_id: r.id }, 'http');
    const rows = hub.db.prepare('SELECT actor, op, target FROM audit ORDER BY id').all();
    expect(rows).toEqual([
      { actor: 'mcp', op: 'memory.add', target: String(r.id) },
      { actor: 'http', op: 'memory.forget', target: String(r.id) },
    ]);
  });
});

describe('recall', () => {
  beforeEach(async () => {
    await remember({ entity_name: 'Brian', fact: 'Brian keeps the bedroom at 68°F at night', category: 'preference' });
    await remember({
      entity_name: 'Anna',
      fact: 'Anna is lactose intolerant and drinks oat milk',
      category: 'general',
    });
    await remember({
      entity_name: 'Biscuit',
      entity_type: 'pet',
      fact: 'Biscuit the golden retriever eats grain-free kibble twice a day',
      category: 'routine',
    });
    await remember({
      entity_name: 'car',
      entity_type: 'device',
      fact: 'The Subaru needs new tyres before winter',
      category: 'general',
    });
  });

  it.each(['vector', 'keyword', 'hybrid'])('finds the answer in %s mode', async (mode) => {
    const r = await recall({ query: 'what temperature does Brian keep the bedroom', mode });
    expect(r.mode_used).toBe(mode);
    expect(r.results[0]?.fact).toContain('68°F');
  });

  it('returns nothing when nothing is evidence, instead of padding', async () => {
    for (const mode of ['vector', 'keyword', 'hybrid']) {
      const r = await recall({ query: "what is Brian's blood type", mode });
      expect(r.results, mode).toEqual([]);
    }
  });

  it('treats FTS syntax in queries as plain words', async () => {
    for (const q of [
      '"a" OR b*',
      'NEAR(',
      'bedroom" OR "x',
      'fact:bedroom',
      '*',
      '(((',
      'AND OR NOT',
      "'; DROP TABLE memories; --",
      '^bedroom',
    ]) {
      const r = await recall({ query: q, mode: 'keyword' });
      expect(Array.isArray(r.results)).toBe(true);
    }
    const r = await recall({ query: 'bedroom" OR "night', mode: 'keyword' });
    expect(r.results[0]?.entity_name).toBe('Brian');
    expect(count('SELECT count(*) n FROM memories')).toBe(4);
  });

  it('filters by entity, category, trust and confidence', async () => {
    expect((await recall({ query: 'milk', entity_name: 'Brian' })).results).toEqual([]);
    expect((await recall({ query: 'oat milk', entity_name: 'Anna' })).results).toHaveLength(1);
    expect((await recall({ query: 'oat milk', category: 'preference' })).results).toEqual([]);
    await remember({
      entity_name: 'Anna',
      fact: 'Anna might prefer almond milk',
      source_trust: 'external',
      confidence: 0.4,
    });
    const trusted = await recall({ query: 'milk', min_trust: 'user' });
    expect(trusted.results.every((r) => r.source_trust === 5)).toBe(true);
    const confident = await recall({ query: 'milk', min_confidence: 0.5 });
    expect(confident.results.every((r) => r.effective_confidence >= 0.5)).toBe(true);
  });

  it('entity-scoped vector recall stays exact among many other memories', async () => {
    for (let i = 0; i < 300; i++) {
      await remember({
        entity_name: `Guest ${i % 30}`,
        fact: `Guest ${i} keeps the bedroom at ${60 + (i % 15)}°F at night`,
        category: 'preference',
      });
    }
    const r = await recall({ query: 'bedroom temperature at night', entity_name: 'Brian', mode: 'vector' });
    expect(r.results.map((x) => x.entity_name)).toEqual(['Brian']);
  });

  it('bumps last_accessed and access_count, written together a moment later (not a write per recall)', async () => {
    const r = await recall({ query: 'oat milk' });
    const id = r.results[0].id;
    expect(hub.services.memory.get(id)!.access_count).toBe(0);
    hub.clock.advance(60);
    await recall({ query: 'oat milk' });
    const changes = hub.db.prepare('SELECT total_changes() AS n').pluck();
    const before = changes.get() as number;
    hub.services.memory.flushTouches();
    const m = hub.services.memory.get(id)!;
    expect(m.access_count).toBe(2);
    expect(m.last_accessed).toBe(hub.clock.now());
    expect((changes.get() as number) - before).toBe(r.results.length);
    // and on their own within TOUCH_FLUSH_MS, and at stop (main.ts)
    await recall({ query: 'oat milk' });
    await new Promise((resolve) => setTimeout(resolve, TOUCH_FLUSH_MS + 200));
    expect(hub.services.memory.get(id)!.access_count).toBe(3);
  });

  it('writes pending access bumps when the hub stops', async () => {
    const dir = tempDir();
    const h = await buildTestHub({ dir });
    await h.services.memory.remember(RememberInput.parse({ entity_name: 'Anna', fact: 'Anna drinks oat milk' }));
    const r = await h.services.memory.recall(RecallInput.parse({ query: 'oat milk' }));
    await h.stop();
    const again = await buildTestHub({ dir });
    try {
      expect(again.services.memory.get(r.results[0].id)!.access_count).toBe(1);
    } finally {
      await again.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('recall beside a restatement', () => {
  it('a top-1 with a restatement just behind it (not a duplicate) still answers: its rival is the next other fact', async () => {
    // Vectors chosen by hand (use-lite's confidence model): two restatements at cosine 0.86 to each other
    // (under the duplicate check's 0.92), a question at 0.76 and 0.745 to them (0.015 apart: measured
    // against each other neither would stand out), another fact far off.
    const unit = unitVector(8);
    const a = unit(1);
    const b = unit(1, 0.6);
    const q = unit(0.76, 0.18135, Math.sqrt(1 - 0.76 ** 2 - 0.18135 ** 2));
    const table: [RegExp, Float32Array][] = [
      [/likes green tea/, a],
      [/drinks green tea/, b],
      [/penicillin/, unit(0, 0, 0, 1)],
      [/morning brew/, q],
    ];
    const embedder = handMadeEmbedder(8, table, unit(0, 0, 0, 0, 1));
    const h = await buildTestHub({ embedder });
    try {
      const m = h.services.memory;
      for (const fact of [
        'Brian likes green tea',
        'Brian drinks green tea from the blue pot',
        'Brian is allergic to penicillin',
      ])
        await m.remember(RememberInput.parse({ entity_name: 'Brian', fact }));
      const r = await m.recall(RecallInput.parse({ query: 'his morning brew', explain: true }));
      expect(r.results.map((x) => x.fact).sort()).toEqual([
        'Brian drinks green tea from the blue pot',
        'Brian likes green tea',
      ]);
    } finally {
      await h.close();
    }
  });
});

describe('decay', () => {
  it('is computed on read: applying it twice equals once, stored confidence untouched', async () => {
    const r = await remember({
      entity_name: 'Brian',
      fact: 'Brian waters the ferns on Sundays',
      category: 'habit',
      confidence: 0.8,
    });
    hub.clock.advance(90 * 86400 * 2); // two half-lives
    const once = hub.services.memory.fading({ threshold: 0.5, limit: 10 });
    const twice = hub.services.memory.fading({ threshold: 0.5, limit: 10 });
    expect(once.memories[0].effective_confidence).toBeCloseTo(0.2, 6);
    expect(twice).toEqual(once);
    expect(hub.services.memory.get(r.id)!.confidence).toBe(0.8);
    // Restating confirms it: no longer fading.
    await remember({ entity_name: 'Brian', fact: 'Brian waters the ferns on Sundays', category: 'habit' });
    expect(hub.services.memory.fading({ threshold: 0.5, limit: 10 }).memories).toEqual([]);
  });

  it('lists the most faded first and honours per-category half-lives', async () => {
    await hub.close();
    hub = await buildTestHub({ config: { memory: { decay_category_halflife: { insight: 10 } } } });
    await remember({ entity_name: 'House', fact: 'The heating bill doubled in January', category: 'insight' });
    await remember({ entity_name: 'House', fact: 'The house has a heat pump', category: 'general' });
    hub.clock.advance(30 * 86400);
    const f = hub.services.memory.fading({ threshold: 0.9, limit: 10 });
    expect(f.memories.map((m) => m.category)).toEqual(['insight', 'general']);
    expect(f.memories[0].effective_confidence).toBeCloseTo(0.125, 4);
  });
});

describe('forget', () => {
  it('removes a whole entity with its vectors, keyword rows and relations in one go', async () => {
    await remember({ entity_name: 'Jess', fact: 'Jess babysits on Friday evenings' });
    await remember({ entity_name: 'Jess', fact: 'Jess is vegetarian' });
    await remember({ entity_name: 'Anna', fact: 'Anna works night shifts' });
    hub.services.relations.relate({ entity_a: 'Jess', entity_b: 'Anna', rel_type: 'works_for' });
    const r = hub.services.memory.forget({ entity_name: 'jess' }, 'http');
    expect(r.deleted_memories).toBe(2);
    expect(count('SELECT count(*) n FROM memories')).toBe(1);
    expect(count('SELECT count(*) n FROM memory_fts')).toBe(1);
    expect(count('SELECT count(*) n FROM memory_vectors')).toBe(1);
    expect(count('SELECT count(*) n FROM relations')).toBe(0);
    expect((await recall({ query: 'babysits vegetarian' })).results).toEqual([]);
  });

  it('answers not_found for an unknown memory', () => {
    expect(() => hub.services.memory.forget({ memory_id: 999 })).toThrow(/memory_id/);
  });
});

describe('relations', () => {
  it('ends relations by validity and keeps history', () => {
    const { relations } = hub.services;
    relations.relate({ entity_a: 'Brian', entity_b: 'Anna', rel_type: 'spouse_of' });
    relations.relate({ entity_a: 'Brian', entity_b: 'Subaru', rel_type: 'owns', entity_b_type: 'device' });
    expect(relations.relate({ entity_a: 'Brian', entity_b: 'Subaru', rel_type: 'owns' }).created).toBe(false);
    hub.clock.advance(60);
    relations.unrelate({ entity_a: 'Brian', entity_b: 'Subaru', rel_type: 'owns' });
    expect(
      relations
        .getRelated({ entity_name: 'Brian', direction: 'both', include_history: false })
        .relations.map((r) => r.rel_type),
    ).toEqual(['spouse_of']);
    const hist = relations.getRelated({ entity_name: 'Brian', direction: 'both', include_history: true }).relations;
    expect(hist.find((r) => r.rel_type === 'owns')?.valid_until).toBe(hub.clock.now());
    expect(
      relations.getRelated({ entity_name: 'Anna', direction: 'in', include_history: false }).relations[0].other,
    ).toBe('Brian');
    expect(hub.services.entities.get('Subaru').type).toBe('device');
    expect(() => relations.unrelate({ entity_a: 'Brian', entity_b: 'Subaru', rel_type: 'owns' })).toThrow(
      /no current relation/,
    );
  });
});
