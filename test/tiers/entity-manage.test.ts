/**
 * Entity management (issue #29 item 2): merge with a preview, rename, change type, delete with a
 * preview, end a relation — the service over real SQLite, through POST /entities/* (inject), each
 * audited, each undoable where it can be, and every bad field a 4xx naming it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/mcp/server.js';
import { get, hubForEachTest, post, postOk, type TestHub } from '../helpers/hub.js';

let hub: TestHub;
hubForEachTest((h) => (hub = h));
const ok = (url: string, body: unknown) => postOk(hub, url, body);
const audit = (op: string) => hub.services.audit.query({ op, limit: 10 });
const names = async () => ((await get(hub, '/entities')).body.entities as { name: string }[]).map((e) => e.name);

/** Two spellings of one person, each with facts, a relation, readings, a place and a name of its own. */
async function twoBrians() {
  await ok('/remember', { entity_name: 'Brian', fact: 'Brian likes strong coffee', entity_type: 'person' });
  await ok('/remember', { entity_name: 'Bryan', fact: 'Bryan plays the trumpet on Sundays' });
  await ok('/remember', { entity_name: 'Bryan', fact: 'Bryan is allergic to cats' });
  await ok('/relate', { entity_a: 'Bryan', entity_b: 'Rex', rel_type: 'owns' });
  await ok('/record', { entity_name: 'Bryan', metric: 'heart_rate', value: 61 });
  await ok('/locate', { entity_name: 'Bryan', container_name: 'the study' });
  await ok('/alias', { entity_name: 'Bryan', alias: 'Bry' });
}

describe('merge', () => {
  it('a dry run lists what would move and changes nothing; the merge moves it all, audited, and the old name stays as an alias', async () => {
    await twoBrians();
    const preview = await ok('/entities/merge', { source_name: 'Bryan', target_name: 'Brian', dry_run: true });
    const count = (key: string) => preview.moves.counts.find((c: { key: string }) => c.key === key)?.n;
    expect(count('memories.entity_id')).toBe(2);
    expect(count('relations.entity_a')).toBe(1);
    expect(count('readings')).toBe(1);
    expect(count('locations.entity_id')).toBe(1);
    expect(count('entity_aliases.entity_id')).toBe(1);
    expect(preview.moves.facts.map((f: { fact: string }) => f.fact)).toEqual(
      expect.arrayContaining(['Bryan plays the trumpet on Sundays', 'Bryan is allergic to cats']),
    );
    expect(preview.moves.relations).toEqual(['Bryan owns Rex']);
    expect(preview.result).toMatch(
      /^Would merge Bryan into Brian: 2 facts, 1 relation to another entity, .*"Bryan" stays as another name of Brian$/,
    );
    expect(await names()).toContain('Bryan');
    expect(audit('entity.merge')).toHaveLength(0);

    const done = await ok('/entities/merge', { source_name: 'Bryan', target_name: 'Brian' });
    expect(done).toMatchObject({ dry_run: false, source_name: 'Bryan', target_name: 'Brian' });
    expect(await names()).not.toContain('Bryan');
    const profile = (await get(hub, '/profile/Brian')).body;
    expect(JSON.stringify(profile)).toContain('Bryan plays the trumpet on Sundays');
    // every door still finds it under the merged name and its alias
    const recall = await ok('/recall', { query: 'trumpet', entity_name: 'Bryan' });
    expect(recall.results.map((r: { entity_name: string; fact: string }) => [r.entity_name, r.fact])).toEqual([
      ['Brian', 'Bryan plays the trumpet on Sundays'],
    ]);
    expect((await get(hub, '/aliases/Brian')).body.aliases.map((a: { alias: string }) => a.alias).sort()).toEqual([
      'Bry',
      'Bryan',
    ]);
    expect((await ok('/get_related', { entity_name: 'Brian' })).relations).toMatchObject([
      { entity_a: 'Brian', rel_type: 'owns', entity_b: 'Rex' },
    ]);
    expect((await ok('/find', { entity_name: 'Brian' })).container_name).toBe('the study');
    expect((await ok('/query_stream', { entity_name: 'Brian', metric: 'heart_rate' })).points).toHaveLength(1);

    const [row] = audit('entity.merge');
    expect(row).toMatchObject({
      actor: 'http',
      target: 'Brian',
      before: { source: 'Bryan' },
      after: { target: 'Brian' },
    });
    expect(audit('entity.alias')[0]).toMatchObject({ target: 'Brian', after: { alias: 'Bryan' } });
  });

  it('refuses the same entity twice, an unknown one, and a missing field, each naming the field; nothing changes', async () => {
    await twoBrians();
    const same = await post(hub, '/entities/merge', { source_name: 'Bryan', target_name: 'bryan' });
    expect([same.status, same.body.message]).toEqual([400, expect.stringMatching(/^target_name: /)]);
    const alias = await post(hub, '/entities/merge', { source_name: 'Bryan', target_name: 'Bry' });
    expect([alias.status, alias.body.message]).toEqual([
      400,
      expect.stringMatching(/^target_name: "Bry" is another name of Bryan/),
    ]);
    const unknown = await post(hub, '/entities/merge', { source_name: 'Nobody', target_name: 'Brian' });
    expect([unknown.status, unknown.body.message]).toEqual([404, 'source_name: no entity named "Nobody"']);
    const missing = await post(hub, '/entities/merge', { source_name: 'Bryan' });
    expect([missing.status, missing.body.message]).toEqual([400, expect.stringMatching(/target_name/)]);
    expect(await names()).toEqual(expect.arrayContaining(['Brian', 'Bryan']));
  });
});

describe('rename and type', () => {
  it('renames with everything attached, audited; renaming back undoes it; a taken name is a 409 naming new_name', async () => {
    await ok('/remember', { entity_name: 'Rex', fact: 'Rex sleeps in the hallway basket' });
    await ok('/remember', { entity_name: 'Anna', fact: 'Anna walks Rex at seven' });
    await ok('/relate', { entity_a: 'Anna', entity_b: 'Rex', rel_type: 'walks' });
    const r = await ok('/entities/rename', { entity_name: 'rex', new_name: 'Rexy' });
    expect(r).toMatchObject({ entity_name: 'Rexy', previous_name: 'Rex', changed: true });
    expect(await names()).toEqual(['Anna', 'Rexy']);
    expect((await ok('/recall', { query: 'Rexy hallway basket' })).results[0]).toMatchObject({
      entity_name: 'Rexy',
      fact: 'Rex sleeps in the hallway basket',
    });
    expect((await ok('/get_related', { entity_name: 'Anna' })).relations[0]).toMatchObject({ other: 'Rexy' });
    expect(audit('entity.rename')[0]).toMatchObject({
      actor: 'http',
      target: 'Rexy',
      before: { name: 'Rex' },
      after: { name: 'Rexy' },
    });

    expect(await ok('/entities/rename', { entity_name: 'Rexy', new_name: 'Rex' })).toMatchObject({
      entity_name: 'Rex',
      changed: true,
    });
    expect(await names()).toEqual(['Anna', 'Rex']);

    const taken = await post(hub, '/entities/rename', { entity_name: 'Rex', new_name: 'anna' });
    expect([taken.status, taken.body.message]).toEqual([
      409,
      'new_name: "anna" already names Anna; merge the two instead',
    ]);
    const empty = await post(hub, '/entities/rename', { entity_name: 'Rex', new_name: '  ' });
    expect([empty.status, empty.body.message]).toEqual([400, expect.stringMatching(/^new_name: /)]);
    const unknown = await post(hub, '/entities/rename', { entity_name: 'Nobody', new_name: 'Somebody' });
    expect([unknown.status, unknown.body.message]).toEqual([404, 'entity_name: no entity named "Nobody"']);
  });

  it('after a merge, renaming to the merged name (now its own alias) works: the alias becomes the name', async () => {
    await twoBrians();
    await ok('/entities/merge', { source_name: 'Bryan', target_name: 'Brian' });
    expect(await ok('/entities/rename', { entity_name: 'Brian', new_name: 'Bryan' })).toMatchObject({
      entity_name: 'Bryan',
      previous_name: 'Brian',
    });
    expect(await names()).toContain('Bryan');
    // the name it had stays another name of it, as with any rename
    expect((await get(hub, '/aliases/Bryan')).body.aliases.map((a: { alias: string }) => a.alias).sort()).toEqual([
      'Brian',
      'Bry',
    ]);
  });

  it('issue 35 item 6: a renamed device-fed entity keeps its old name as an alias: the device feeds the same series, and renaming back works', async () => {
    const reading = (value: number) =>
      ok('/record', { entity_name: 'sensor.hallway_temperature', metric: 'temperature', value, unit: '°C' });
    await reading(20.5);
    const r = await ok('/entities/rename', {
      entity_name: 'sensor.hallway_temperature',
      new_name: 'Hallway thermometer',
    });
    expect(r.result).toBe(
      'sensor.hallway_temperature is now called Hallway thermometer; everything stays attached, and "sensor.hallway_temperature" stays another name of it',
    );
    expect(audit('entity.alias')[0]).toMatchObject({
      actor: 'http',
      target: 'Hallway thermometer',
      after: { alias: 'sensor.hallway_temperature' },
    });
    // Home Assistant keeps publishing under the old name: the same entity, the same series
    hub.clock.advance(60);
    await reading(20.7);
    expect(await names()).toEqual(['Hallway thermometer']);
    const pts = await ok('/query_stream', { entity_name: 'Hallway thermometer', metric: 'temperature', start_ts: 0 });
    expect(pts.points.map((p: { value: number }) => p.value)).toEqual([20.5, 20.7]);
    // the documented undo
    expect(
      await ok('/entities/rename', { entity_name: 'Hallway thermometer', new_name: 'sensor.hallway_temperature' }),
    ).toMatchObject({ entity_name: 'sensor.hallway_temperature', changed: true });
    expect(await names()).toEqual(['sensor.hallway_temperature']);
    expect((await get(hub, '/aliases/sensor.hallway_temperature')).body.aliases.map((a: any) => a.alias)).toEqual([
      'Hallway thermometer',
    ]);
    hub.clock.advance(60);
    await reading(20.9);
    expect(
      (await ok('/query_stream', { entity_name: 'sensor.hallway_temperature', metric: 'temperature', start_ts: 0 }))
        .points,
    ).toHaveLength(3);
  });

  it('sets a type, audited, and sets it back; an empty or control-character type is a 400 naming type', async () => {
    await ok('/remember', { entity_name: 'Rex', fact: 'Rex barks at the postman' });
    expect(await ok('/entities/set_type', { entity_name: 'Rex', type: 'pet' })).toMatchObject({
      type: 'pet',
      previous_type: 'unknown',
      changed: true,
    });
    expect(
      ((await get(hub, '/entities')).body.entities as { name: string; type: string }[]).find((e) => e.name === 'Rex')
        ?.type,
    ).toBe('pet');
    expect(audit('entity.type')[0]).toMatchObject({
      actor: 'http',
      target: 'Rex',
      before: { type: 'unknown' },
      after: { type: 'pet' },
    });
    expect(await ok('/entities/set_type', { entity_name: 'Rex', type: 'unknown' })).toMatchObject({
      type: 'unknown',
      previous_type: 'pet',
    });
    for (const type of ['', 'a\u0007b', 'x'.repeat(51)]) {
      const bad = await post(hub, '/entities/set_type', { entity_name: 'Rex', type });
      expect([bad.status, bad.body.message]).toEqual([400, expect.stringMatching(/^type: /)]);
    }
  });
});

describe('delete and end a relation', () => {
  it('a dry run lists what would go; the delete removes the entity and all it holds, audited', async () => {
    await ok('/remember', { entity_name: 'old_sensor', fact: 'old_sensor was in the loft' });
    await ok('/record', { entity_name: 'old_sensor', metric: 'temperature', value: 12 });
    const preview = await ok('/entities/delete', { entity_name: 'old_sensor', dry_run: true });
    expect(preview.result).toBe('Would delete old_sensor with 1 fact, 1 kind of reading, 1 reading');
    expect(preview.deletes.facts).toMatchObject([{ fact: 'old_sensor was in the loft' }]);
    expect(await names()).toContain('old_sensor');
    expect(await ok('/entities/delete', { entity_name: 'old_sensor' })).toMatchObject({
      dry_run: false,
      deleted_memories: 1,
    });
    expect(await names()).not.toContain('old_sensor');
    expect((await ok('/recall', { query: 'loft' })).results).toEqual([]);
    expect(audit('entity.forget')[0]).toMatchObject({ actor: 'http', target: 'old_sensor' });
    expect((await post(hub, '/entities/delete', { entity_name: 'old_sensor' })).status).toBe(404);
  });

  it('ends one relation by id (history kept, audited); an ended or unknown one is refused naming relation_id', async () => {
    const { id } = await ok('/relate', { entity_a: 'Brian', entity_b: 'Rex', rel_type: 'owns' });
    await ok('/relate', { entity_a: 'Brian', entity_b: 'Rex', rel_type: 'walks' });
    expect(await ok('/entities/end_relation', { relation_id: id })).toMatchObject({
      ended: [id],
      entity_a: 'Brian',
      rel_type: 'owns',
      entity_b: 'Rex',
    });
    const rels = (await ok('/get_related', { entity_name: 'Brian', include_history: true })).relations as {
      rel_type: string;
      valid_until: number | null;
    }[];
    expect(rels.map((r) => [r.rel_type, r.valid_until === null]).sort()).toEqual([
      ['owns', false],
      ['walks', true],
    ]);
    expect(audit('relation.end')[0]).toMatchObject({ actor: 'http', target: String(id) });
    const again = await post(hub, '/entities/end_relation', { relation_id: id });
    expect([again.status, again.body.message]).toEqual([409, 'relation_id: Brian owns Rex has already ended']);
    expect((await post(hub, '/entities/end_relation', { relation_id: 999 })).body.message).toBe(
      'relation_id: no relation with id 999',
    );
    const bad = await post(hub, '/entities/end_relation', { relation_id: 'abc' });
    expect([bad.status, bad.body.message]).toEqual([400, expect.stringMatching(/^relation_id: /)]);
    // undo: relate again
    expect((await ok('/relate', { entity_a: 'Brian', entity_b: 'Rex', rel_type: 'owns' })).created).toBe(true);
  });
});

describe('an alias or a stale preview never destroys another entity (issue 35 item 4)', () => {
  const facts = () => (hub.db.prepare('SELECT count(*) FROM memories').pluck().get() as number) ?? 0;

  it('after a merge, deleting or forgetting the old name is a 409 naming the real entity; confirm says you mean it', async () => {
    await twoBrians();
    await ok('/entities/merge', { source_name: 'Bryan', target_name: 'Brian' });
    const held = facts();
    const del = await post(hub, '/entities/delete', { entity_name: 'Bryan' });
    expect(del.status).toBe(409);
    expect(del.body.message).toMatch(
      /^entity_name: "Bryan" is another name of Brian, not an entity of its own; deleting it would delete Brian with 3 facts, .*POST \/unalias \{"alias": "Bryan"\}.*confirm: "Brian"$/,
    );
    const forget = await post(hub, '/forget', { entity_name: 'Bryan' });
    expect([forget.status, forget.body.message]).toEqual([
      409,
      expect.stringContaining(
        '"Bryan" is another name of Brian, not an entity of its own; forgetting it would forget Brian with 3 memories',
      ),
    ]);
    const wrong = await post(hub, '/entities/delete', { entity_name: 'Bryan', confirm: 'Bryan' });
    expect([wrong.status, wrong.body.message]).toEqual([
      409,
      expect.stringContaining('(confirm "Bryan" is not its name)'),
    ]);
    // an assistant's "forget Bryan" over MCP
    const [ct, st] = InMemoryTransport.createLinkedPair();
    await createMcpServer(hub.services).connect(st);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(ct);
    try {
      const out = (await client.callTool({ name: 'forget', arguments: { entity_name: 'Bryan' } })) as any;
      expect(out.isError).toBe(true);
      expect(JSON.parse(out.content[0].text)).toMatchObject({
        error: 'conflict',
        message: expect.stringContaining('"Bryan" is another name of Brian'),
      });
    } finally {
      await client.close();
    }
    expect(facts()).toBe(held);
    expect(await names()).toContain('Brian');
    // the preview says whom the name means; confirming the real name goes ahead
    const preview = await ok('/entities/delete', { entity_name: 'Bryan', dry_run: true });
    expect(preview.result).toMatch(/^"Bryan" is another name of Brian: Would delete Brian with 3 facts/);
    expect(await ok('/entities/delete', { entity_name: 'Bryan', confirm: 'brian' })).toMatchObject({
      entity_name: 'Brian',
      deleted_memories: 3,
    });
    expect(await names()).not.toContain('Brian');
  });

  it('a delete or merge confirmed with the id and version of a preview is refused when the name means something else now', async () => {
    await twoBrians();
    const bryan = await ok('/entities/delete', { entity_name: 'Bryan', dry_run: true });
    const brian = await ok('/entities/delete', { entity_name: 'Brian', dry_run: true });
    expect(bryan).toMatchObject({ entity_id: expect.any(Number), version: expect.stringMatching(/^[0-9a-f]{16}$/) });
    await ok('/entities/merge', { source_name: 'Bryan', target_name: 'Brian' });
    const held = facts();
    const stale = await post(hub, '/entities/delete', {
      entity_name: 'Bryan',
      entity_id: bryan.entity_id,
      version: bryan.version,
    });
    expect([stale.status, stale.body.message]).toEqual([
      409,
      expect.stringMatching(
        /^entity_id: the entity you previewed \(id \d+\) is not the one "Bryan" names now: "Bryan" is now another name of Brian/,
      ),
    ]);
    const grown = await post(hub, '/entities/delete', {
      entity_name: 'Brian',
      entity_id: brian.entity_id,
      version: brian.version,
    });
    expect([grown.status, grown.body.message]).toEqual([
      409,
      expect.stringMatching(/^version: Brian changed since the preview \(it now holds 3 facts/),
    ]);
    expect(facts()).toBe(held);

    // merge: an alias as the source, and a preview that went stale
    await ok('/remember', { entity_name: 'Rosa', fact: 'Rosa walks the dog' });
    await ok('/alias', { entity_name: 'Rosa', alias: 'Mum' });
    await ok('/remember', { entity_name: 'Rose', fact: 'Rose likes tulips' });
    const viaAlias = await post(hub, '/entities/merge', { source_name: 'Mum', target_name: 'Rose' });
    expect([viaAlias.status, viaAlias.body.message]).toEqual([
      409,
      expect.stringContaining(
        'source_name: "Mum" is another name of Rosa, not an entity of its own; merging it would merge away Rosa',
      ),
    ]);
    const plan = await ok('/entities/merge', { source_name: 'Rose', target_name: 'Rosa', dry_run: true });
    await ok('/remember', { entity_name: 'Rosa', fact: 'Rosa is allergic to lilies' });
    const late = await post(hub, '/entities/merge', {
      source_name: 'Rose',
      target_name: 'Rosa',
      source_id: plan.source_id,
      target_id: plan.target_id,
      version: plan.version,
    });
    expect([late.status, late.body.message]).toEqual([409, expect.stringContaining('changed since the preview')]);
    expect(await names()).toEqual(expect.arrayContaining(['Rosa', 'Rose']));
    const fresh = await ok('/entities/merge', { source_name: 'Rose', target_name: 'Rosa', dry_run: true });
    expect(
      await ok('/entities/merge', {
        source_name: 'Rose',
        target_name: 'Rosa',
        source_id: fresh.source_id,
        target_id: fresh.target_id,
        version: fresh.version,
      }),
    ).toMatchObject({ dry_run: false, target_name: 'Rosa' });
  });
});

describe('recent changes read model', () => {
  it('names what each change is about, from the rows or, when gone, from the log', async () => {
    const { id } = await ok('/relate', { entity_a: 'Brian', entity_b: 'Rex', rel_type: 'owns' });
    const m = await ok('/remember', { entity_name: 'Rosa', fact: 'Rosa likes tea' });
    await ok('/forget', { memory_id: m.id });
    await ok('/entities/end_relation', { relation_id: id });
    await ok('/entities/delete', { entity_name: 'Rex' });
    const text = (p: string | { entity: string }) => (typeof p === 'string' ? p : p.entity);
    const changes = hub.services.manage.recentChanges(10).map((c) => [c.op, c.parts.map(text).join(''), c.gone]);
    expect(changes).toEqual([
      ['entity.forget', 'Rex (0 memories)', true],
      ['relation.end', 'Brian → owns → Rex', true],
      ['memory.forget', 'Rosa: ‘Rosa likes tea’', true],
      ['memory.add', 'Rosa: ‘Rosa likes tea’', true],
      ['relation.add', 'Brian → owns → Rex', true],
    ]);
  });
});
