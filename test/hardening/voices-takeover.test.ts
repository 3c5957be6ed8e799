/**
 * Issue #26 item 12: a new unknown voice must never be filed under an entity that already holds
 * the name `unknown_speaker_N` (made by hand, by `remember`, by an import): its memories, its meta
 * and its voice print stay as they were; the stranger gets a fresh entity with a free name.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prng } from '../../scripts/lib/prng.js';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';

const DIM = 64;
const rand = prng(26).next;
const voice = () => Array.from({ length: DIM }, () => rand() * 2 - 1);

let hub: TestHub;
beforeEach(async () => {
  hub = await buildTestHub();
});
afterEach(async () => hub.close());

const printOf = (id: number) =>
  hub.db.prepare('SELECT embedding, samples FROM voiceprints WHERE entity_id = ?').get(id) as
    | { embedding: Buffer; samples: number }
    | undefined;

describe('a provisional speaker always gets a new entity', () => {
  it('skips a name held by an entity with memories; that entity keeps its facts and meta', async () => {
    const r = await post(hub, '/remember', {
      entity_name: 'unknown_speaker_1',
      fact: 'the safe combination is 31-07-22',
      category: 'general',
    });
    expect(r.status).toBe(200);
    const held = hub.services.entities.find('unknown_speaker_1')!;
    const metaBefore = held.meta;
    const id = await post(hub, '/voices/identify', { embedding: voice(), room: 'hall' });
    expect(id.status).toBe(200);
    expect(id.body).toMatchObject({ created: true, provisional: true });
    expect(id.body.entity_name).not.toBe('unknown_speaker_1');
    expect(id.body.entity_id).not.toBe(held.id);
    const after = hub.services.entities.find('unknown_speaker_1')!;
    expect(after.meta).toEqual(metaBefore);
    expect(printOf(held.id)).toBeUndefined();
    const facts = hub.db
      .prepare("SELECT fact FROM memories WHERE entity_id = ? AND status = 'active'")
      .all(held.id) as { fact: string }[];
    expect(facts.map((f) => f.fact)).toEqual(['the safe combination is 31-07-22']);
    const mine = hub.db.prepare('SELECT count(*) AS n FROM memories WHERE entity_id = ?').get(id.body.entity_id) as {
      n: number;
    };
    expect(mine.n).toBe(0);
  });

  it('a second stranger never overwrites an enrolled voice print held under the next name', async () => {
    const anna = voice();
    // Someone enrolled a voice under the name the counter will reach next.
    const e = await post(hub, '/voices/enroll', { entity_name: 'unknown_speaker_2', embedding: anna });
    expect(e.status).toBe(200);
    const before = printOf(e.body.entity_id)!;
    const first = await post(hub, '/voices/identify', { embedding: voice() });
    const second = await post(hub, '/voices/identify', { embedding: voice() });
    expect([first.body.created, second.body.created]).toEqual([true, true]);
    const names = [first.body.entity_name, second.body.entity_name];
    expect(names).not.toContain('unknown_speaker_2');
    expect(new Set(names).size).toBe(2);
    const after = printOf(e.body.entity_id)!;
    expect(after.samples).toBe(before.samples);
    expect(Buffer.compare(after.embedding, before.embedding)).toBe(0);
    // Anna is still recognised as herself.
    const again = await post(hub, '/voices/identify', { embedding: anna.map((x) => x * 2) });
    expect(again.body).toMatchObject({ entity_name: 'unknown_speaker_2', created: false });
  });
});
