/**
 * Voices over real HTTP (inject) and MCP (linked in-memory transport) on a real SQLite file:
 * identify creates a provisional speaker and finds it again, the embedding size is fixed by the
 * first print, enroll renames keeping everything, merge moves every table's rows in one go.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/mcp/server.js';
import { prng } from '../../scripts/lib/prng.js';
import { VOICE_MATCH_THRESHOLD } from '../../src/tiers/voices/prints.js';
import { HubError } from '../../src/lib/errors.js';
import { buildTestHub, get, post, type TestHub } from '../helpers/hub.js';
import { createLocalEmbedder } from '../../src/ai/local-embedder.js';
import { vectorTables } from '../../src/db/vectors.js';
import { internals } from '../../src/internals.js';

const DIM = 192;
const rand = prng(15).next;
const voice = () => Array.from({ length: DIM }, () => rand() * 2 - 1);
/** Another utterance of the same voice: a little noise, another scale. */
const again = (v: number[], noise = 0.15) => v.map((x) => 3 * (x + noise * (rand() * 2 - 1)));

let hub: TestHub;
beforeEach(async () => {
  hub = await buildTestHub();
});
afterEach(async () => hub.close());

const TABLES = [
  'memories',
  'sessions',
  'session_turns',
  'relations',
  'locations',
  'intentions',
  'readings',
  'schedule_events',
  'working_memory_tasks',
  'promoted_patterns',
];
const totals = () =>
  Object.fromEntries(
    TABLES.map((t) => [t, (hub.db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n]),
  );

describe('identify', () => {
  it('creates unknown_speaker_N for a new voice, finds it again, and tells two voices apart', async () => {
    const a = voice();
    const b = voice();
    const first = await post(hub, '/voices/identify', { embedding: a, room: 'kitchen' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      entity_name: 'unknown_speaker_1',
      provisional: true,
      created: true,
      threshold: VOICE_MATCH_THRESHOLD,
    });
    const same = await post(hub, '/voices/identify', { embedding: again(a) });
    expect(same.body).toMatchObject({ entity_name: 'unknown_speaker_1', created: false });
    expect(same.body.similarity).toBeGreaterThan(VOICE_MATCH_THRESHOLD);
    const other = await post(hub, '/voices/identify', { embedding: b });
    expect(other.body).toMatchObject({ entity_name: 'unknown_speaker_2', created: true });
    expect(other.body.candidates[0].similarity).toBeLessThan(VOICE_MATCH_THRESHOLD);
    const unknown = await get(hub, '/voices/unknown');
    expect(unknown.body.speakers.map((s: any) => [s.entity_name, s.detection_count])).toEqual([
      ['unknown_speaker_1', 2],
      ['unknown_speaker_2', 1],
    ]);
    expect(unknown.body.speakers[0].first_seen_room).toBe('kitchen');
    expect(hub.services.entities.find('unknown_speaker_1')).toMatchObject({
      type: 'person',
      meta: { provisional: true },
    });
  });

  it('fixes the embedding size on first use and answers 400 naming the field otherwise', async () => {
    await post(hub, '/voices/identify', { embedding: voice() });
    const wrong = await post(hub, '/voices/identify', { embedding: new Array(256).fill(0.1) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(
      "embedding: expected 192 numbers (this installation's voice embedding size, fixed by its first voice print), got 256",
    );
    const zero = await post(hub, '/voices/identify', { embedding: new Array(DIM).fill(0) });
    expect(zero.status).toBe(400);
    expect(zero.body.message).toContain('embedding');
    for (const body of [{}, { embedding: 'x' }, { embedding: [1, 2, 'x', 4, 5, 6, 7, 8] }, { embedding: [1, 2] }]) {
      const r = await post(hub, '/voices/identify', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.message).toContain('embedding');
    }
    expect((await post(hub, '/voices/update_print', { entity_name: 'Nobody', embedding: voice() })).status).toBe(404);
    expect((await post(hub, '/voices/merge', { source_name: 'a', target_name: 'A' })).status).toBe(400);
  });
});

describe('enroll and update_print', () => {
  it('renames a provisional speaker keeping everything; the number is never reused; a taken name is 409', async () => {
    const a = voice();
    await post(hub, '/voices/identify', { embedding: a });
    await post(hub, '/remember', {
      entity_name: 'unknown_speaker_1',
      fact: 'unknown_speaker_1 likes oolong tea',
      category: 'preference',
    });
    const s = await post(hub, '/open_session', { entity_name: 'unknown_speaker_1' });
    await post(hub, '/log_turn', { session_id: s.body.session_id, role: 'user', content: 'I like oolong tea' });
    const r = await post(hub, '/voices/enroll', {
      entity_name: 'unknown_speaker_1',
      new_name: 'Anna',
      display_name: 'Anna K.',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ entity_name: 'Anna', previous_name: 'unknown_speaker_1', memories_transferred: 1 });
    expect(hub.services.entities.find('Anna')!.meta).toMatchObject({ status: 'enrolled', display_name: 'Anna K.' });
    expect(hub.services.entities.find('Anna')!.meta.provisional).toBeUndefined();
    const recall = await post(hub, '/recall', { query: 'what tea does Anna like', mode: 'keyword' });
    expect(recall.body.results[0]).toMatchObject({ entity_name: 'Anna', fact: 'unknown_speaker_1 likes oolong tea' });
    expect((await post(hub, '/voices/identify', { embedding: again(a) })).body).toMatchObject({
      entity_name: 'Anna',
      provisional: false,
    });
    expect((await get(hub, '/voices/unknown')).body.speakers).toEqual([]);
    expect((await post(hub, '/voices/identify', { embedding: voice() })).body.entity_name).toBe('unknown_speaker_2');
    const taken = await post(hub, '/voices/enroll', { entity_name: 'unknown_speaker_2', new_name: 'anna' });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toContain('/voices/merge');
  });

  it('update_print keeps a unit running average; enroll from a sample', async () => {
    const c = voice();
    const e = await post(hub, '/voices/enroll', { entity_name: 'Brian', embedding: c });
    expect(e.body).toMatchObject({ entity_name: 'Brian', voiceprint_samples: 1 });
    const u = await post(hub, '/voices/update_print', { entity_name: 'Brian', embedding: again(c) });
    expect(u.body).toMatchObject({ voiceprint_samples: 2, embedding_norm: 1 });
    const w = await post(hub, '/voices/update_print', { entity_name: 'Brian', embedding: again(c), weight: 0.1 });
    expect(w.body).toMatchObject({ voiceprint_samples: 3, embedding_norm: 1 });
    expect((await post(hub, '/voices/identify', { embedding: again(c) })).body).toMatchObject({
      entity_name: 'Brian',
      provisional: false,
    });
    expect((await post(hub, '/voices/update_print', { entity_name: 'Brian', embedding: c, weight: 0 })).status).toBe(
      400,
    );
  });
});

describe('merge', () => {
  it('moves memories, sessions, relations, locations, intentions, readings and more in one transaction; counts per table before = after', async () => {
    const brianVoice = voice();
    await post(hub, '/voices/enroll', { entity_name: 'Brian', embedding: brianVoice });
    const src = (await post(hub, '/voices/identify', { embedding: voice() })).body.entity_name as string;
    const t0 = hub.clock.now();
    for (const [name, fact] of [
      ['Brian', 'Brian likes jazz'],
      [src, `${src} drinks oat milk`],
    ]) {
      await post(hub, '/remember', { entity_name: name, fact, category: 'preference' });
      await post(hub, '/remember', {
        entity_name: name,
        fact: `${name} sits at the ${name === 'Brian' ? 'window' : 'door'}`,
        fact_key: 'seat',
      });
      const s = await post(hub, '/open_session', { entity_name: name });
      await post(hub, '/log_turn', { session_id: s.body.session_id, role: 'user', content: `hello from ${name}` });
      await post(hub, '/record', { entity_name: name, metric: 'heart_rate', value: 60, ts: t0 - 3600 });
      await post(hub, '/intend', {
        entity_name: name,
        trigger_text: `${name} leaving for work`,
        action_text: 'remind about keys',
      });
      await post(hub, '/schedule', { entity_name: name, title: 'gym', start_ts: t0 + 86_400 });
      await post(hub, '/wm/open', { task_name: `plan for ${name}`, entity_name: name });
    }
    await post(hub, '/record', { entity_name: src, metric: 'mood', value: 'calm', ts: t0 - 1800 });
    await post(hub, '/relate', { entity_a: src, entity_b: 'kitchen', rel_type: 'works_in', entity_b_type: 'room' });
    await post(hub, '/relate', { entity_a: 'Brian', entity_b: src, rel_type: 'same_voice_as' });
    await post(hub, '/relate', { entity_a: 'Brian', entity_b: 'kitchen', rel_type: 'works_in' });
    await post(hub, '/locate', { entity_name: src, container_name: 'kitchen', entity_type: 'person' });
    await post(hub, '/locate', { entity_name: 'glasses', container_name: src, container_type: 'person' });
    internals(hub.services).rollups.run();
    const srcId = hub.services.entities.find(src)!.id;
    const before = totals();

    const r = await post(hub, '/voices/merge', { source_name: src, target_name: 'Brian' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      target_name: 'Brian',
      source_deleted: src,
      memories_merged: 2,
      readings_merged: 2,
      series_merged: 1,
    });
    expect(totals()).toEqual(before);
    expect(hub.services.entities.find(src)).toBeUndefined();
    for (const [k, n] of Object.entries(r.body.after as Record<string, number>)) {
      if (k === 'series.entity_id' || k === 'voiceprints.entity_id') continue;
      expect(n, k).toBe(r.body.before.source[k] + r.body.before.target[k]);
    }
    // nothing still points at the deleted entity
    for (const { table, column } of hub.db
      .prepare(
        `SELECT m.name AS "table", p."from" AS "column" FROM sqlite_master m, pragma_foreign_key_list(m.name) p WHERE m.type = 'table' AND p."table" = 'entities'`,
      )
      .all() as { table: string; column: string }[]) {
      expect(
        (hub.db.prepare(`SELECT count(*) AS n FROM "${table}" WHERE "${column}" = ?`).get(srcId) as { n: number }).n,
        `${table}.${column}`,
      ).toBe(0);
    }
    // rules kept: one active seat, one active location, no self-relation, no duplicate current relation
    const seats = hub.db
      .prepare(
        "SELECT fact FROM memories m JOIN entities e ON e.id = m.entity_id WHERE e.name = 'Brian' AND fact_key = 'seat' AND status = 'active'",
      )
      .all();
    expect(seats).toHaveLength(1);
    expect(
      hub.db.prepare('SELECT count(*) AS n FROM relations WHERE valid_until IS NULL AND entity_a = entity_b').get(),
    ).toEqual({ n: 0 });
    expect(
      (await post(hub, '/get_related', { entity_name: 'Brian' })).body.relations.map(
        (x: any) => `${x.rel_type} ${x.other}`,
      ),
    ).toEqual(['works_in kitchen']);
    expect((await post(hub, '/find', { entity_name: 'glasses' })).body.container_name).toBe('Brian');
    const hr = await post(hub, '/query_stream', { entity_name: 'Brian', metric: 'heart_rate', granularity: 'hour' });
    expect(hr.body.points.reduce((n: number, p: any) => n + p.count, 0)).toBe(2);
    expect((await post(hub, '/recall', { query: 'oat milk', entity_name: 'Brian' })).body.results[0].fact).toContain(
      'oat milk',
    );
    expect(
      hub.db
        .prepare('SELECT samples FROM voiceprints v JOIN entities e ON e.id = v.entity_id WHERE e.name = ?')
        .get('Brian'),
    ).toEqual({ samples: 2 });
    expect(hub.services.audit.query({ op: 'voice.merge', limit: 5 })).toHaveLength(1);
    expect((await post(hub, '/voices/merge', { source_name: src, target_name: 'Brian' })).status).toBe(404);
  });
});

describe('merge after a model switch', () => {
  it('moves the vectors of the live index, whichever of the two tables it is', async () => {
    await post(hub, '/remember', { entity_name: 'Carl', fact: 'Carl drinks oat milk with his porridge' });
    await post(hub, '/remember', { entity_name: 'Brian', fact: 'Brian likes jazz in the evening' });
    await hub.stop();
    // A different model (dimension) on the same data dir: the index is rebuilt beside and swapped.
    const dir = hub.dir;
    const switched = await buildTestHub({ dir, embedder: createLocalEmbedder({ dim: 256 }) });
    try {
      expect((await switched.services.reembed.run()).state).toBe('done');
      expect(vectorTables(switched.db)).toEqual(['memory_vectors_b']);
      expect((await post(switched, '/voices/merge', { source_name: 'Carl', target_name: 'Brian' })).status).toBe(200);
      const r = await post(switched, '/recall', { query: 'oat milk porridge', entity_name: 'Brian', mode: 'vector' });
      expect(r.body.results.map((x: any) => x.fact)).toEqual(['Carl drinks oat milk with his porridge']);
    } finally {
      await switched.close();
    }
  });
});

describe('merge with a neural index (binary codes searched in memory)', () => {
  it('a memory moved by the merge is found under its new entity at once, even before it is re-embedded', async () => {
    // A dense embedder (binary-code layout): a sum of one fixed vector per word, so the merge's
    // re-embedding under the new entity's name ("Brian: Carl drinks…") stays close to the query.
    const word = (w: string) => {
      let h = 2166136261;
      for (const c of w.toLowerCase()) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
      return Float32Array.from({ length: 64 }, (_, i) => Math.sin(h * 0.001 + i * 1.7));
    };
    const dense = (t: string) => {
      const v = new Float32Array(64);
      for (const w of t.match(/\w+/g) ?? []) word(w).forEach((x, i) => (v[i] += x));
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    };
    // Down while the merge re-embeds the moved memories: they keep their vectors, now under Brian.
    let down = false;
    const neural = await buildTestHub({
      embedder: {
        provider: 'ollama',
        model: 'dense-test',
        dim: 64,
        fingerprint: 'dense-test:64',
        ping: async () => true,
        embed: async (ts) => {
          if (down && ts.some((t) => t.startsWith('Brian: '))) throw new HubError('unavailable', 'embedder is down');
          return ts.map(dense);
        },
      },
    });
    try {
      const fact = 'Carl drinks oat milk with his porridge';
      await post(neural, '/remember', { entity_name: 'Carl', fact });
      await post(neural, '/remember', { entity_name: 'Brian', fact: 'Brian likes jazz in the evening' });
      // A search loads the in-memory copy of the codes; wait until searches use it.
      await post(neural, '/recall', { query: fact, mode: 'vector' });
      for (let i = 0; i < 200 && internals(neural.services).vectors.codes !== 'ready'; i++)
        await new Promise((r) => setImmediate(r));
      expect(internals(neural.services).vectors.codes).toBe('ready');
      down = true;
      expect((await post(neural, '/voices/merge', { source_name: 'Carl', target_name: 'Brian' })).status).toBe(200);
      expect(neural.services.memory.pendingCount()).toBe(1);
      const r = await post(neural, '/recall', { query: fact, entity_name: 'Brian', mode: 'vector' });
      expect(r.body.results.map((x: any) => x.fact)).toEqual([fact]);
    } finally {
      await neural.close();
    }
  });
});

describe('with the embedder down', () => {
  it('enroll and merge still commit and answer 200; the memories wait for a vector', async () => {
    const down = await buildTestHub({
      embedder: {
        provider: 'fake',
        model: 'down',
        dim: 8,
        fingerprint: 'down:8',
        ping: async () => false,
        embed: async () => {
          throw new HubError('unavailable', 'embedder is down');
        },
      },
    });
    try {
      await post(down, '/voices/enroll', { entity_name: 'Brian', embedding: voice() });
      const src = (await post(down, '/voices/identify', { embedding: voice() })).body.entity_name;
      await post(down, '/remember', { entity_name: src, fact: `${src} likes rye bread` });
      const e = await post(down, '/voices/enroll', { entity_name: src, new_name: 'Carl' });
      expect(e.status).toBe(200);
      const m = await post(down, '/voices/merge', { source_name: 'Carl', target_name: 'Brian' });
      expect(m.status).toBe(200);
      expect(m.body.memories_merged).toBe(1);
      expect(down.services.memory.pendingCount()).toBe(1);
    } finally {
      await down.close();
    }
  });
});

describe('MCP', () => {
  it('identify_speaker, enroll_speaker and merge_speakers work as tools', async () => {
    const server = createMcpServer(hub.services);
    const [ct, st] = InMemoryTransport.createLinkedPair();
    await server.connect(st);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(ct);
    try {
      const call = async (name: string, args: object) =>
        (await client.callTool({ name, arguments: args as Record<string, unknown> })) as any;
      const a = await call('identify_speaker', { embedding: voice() });
      expect(a.structuredContent.entity_name).toBe('unknown_speaker_1');
      const b = await call('identify_speaker', { embedding: voice() });
      expect(
        (await call('enroll_speaker', { entity_name: 'unknown_speaker_1', new_name: 'Anna' })).structuredContent
          .entity_name,
      ).toBe('Anna');
      expect(
        (await call('merge_speakers', { source_name: b.structuredContent.entity_name, target_name: 'Anna' }))
          .structuredContent.source_deleted,
      ).toBe('unknown_speaker_2');
      const bad = await call('identify_speaker', { embedding: [1, 2, 3] });
      expect(bad.isError).toBe(true);
      expect(bad.structuredContent.message).toContain('embedding');
    } finally {
      await client.close();
    }
  });
});

describe('merge_speakers with a name that is already the target', () => {
  it('an alias of the target (one a merge or rename keeps) is a 409 naming it, never a 500; nothing changes', async () => {
    await post(hub, '/remember', { entity_name: 'Brian', fact: 'Brian likes tea' });
    await post(hub, '/remember', { entity_name: 'Brian', fact: 'Brian likes coffee' });
    expect((await post(hub, '/alias', { entity_name: 'Brian', alias: 'Bryan' })).status).toBe(200);
    const again = await post(hub, '/voices/merge', { source_name: 'Bryan', target_name: 'Brian' });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/^source_name: "Bryan" is already Brian \(another name of it\)/);
    expect((await get(hub, '/profile/Brian')).body.memories).toHaveLength(2);
  });
});
