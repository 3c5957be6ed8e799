/**
 * Entity aliases (issue #28 item 5, SPEC §3): once "Anna" and Home Assistant's `person.anna` are one
 * entity's names, every tier reads and writes that one entity under either name — over real HTTP
 * (inject), a real MCP client, and the admin page.
 */
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { get, hubForEachTest, post, postOk, type TestHub } from '../helpers/hub.js';

let hub: TestHub;
hubForEachTest((h) => (hub = h));
const ok = (url: string, body: unknown) => postOk(hub, url, body);
const entityCount = () => (hub.db.prepare('SELECT count(*) AS n FROM entities').get() as { n: number }).n;

describe('aliases by hand (POST /alias, /unalias)', () => {
  it('adds, lists and removes an alias; refuses one that names another entity with a 409 naming the field', async () => {
    await ok('/remember', { entity_name: 'Anna', fact: 'Anna likes green tea', entity_type: 'person' });
    await ok('/remember', { entity_name: 'Brian', fact: 'Brian likes coffee', entity_type: 'person' });
    expect(await ok('/alias', { entity_name: 'Anna', alias: 'Mum' })).toMatchObject({
      entity_name: 'Anna',
      alias: 'Mum',
      created: true,
    });
    // the same name again, in another case, changes nothing
    expect(await ok('/alias', { entity_name: 'mum', alias: 'MUM' })).toMatchObject({ created: false });

    const taken = await post(hub, '/alias', { entity_name: 'Anna', alias: 'brian' });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toMatch(/^alias: "brian" is the entity Brian/);
    const aliasOfOther = await post(hub, '/alias', { entity_name: 'Brian', alias: 'mum' });
    expect(aliasOfOther.status).toBe(409);
    expect(aliasOfOther.body.message).toMatch(/^alias: "mum" is already an alias of Anna/);
    expect((await post(hub, '/alias', { entity_name: 'Nobody', alias: 'x' })).status).toBe(404);
    const bad = await post(hub, '/alias', { entity_name: 'Anna', alias: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/alias/);

    expect((await get(hub, '/aliases/Mum')).body).toMatchObject({
      entity_name: 'Anna',
      aliases: [{ alias: 'Mum', source: 'manual' }],
    });
    const own = await post(hub, '/unalias', { alias: 'Anna' });
    expect(own.status).toBe(409);
    expect(own.body.message).toMatch(/^alias: "Anna" is the name of Anna, not an alias/);
    expect(await ok('/unalias', { alias: 'mum' })).toMatchObject({ entity_name: 'Anna', alias: 'Mum' });
    expect((await post(hub, '/unalias', { alias: 'Mum' })).status).toBe(404);
    // "Mum" is free again: remembering about her makes a new entity
    await ok('/remember', { entity_name: 'Mum', fact: 'Mum lives in Leeds' });
    expect(entityCount()).toBe(3);
    const audit = hub.db.prepare("SELECT op FROM audit WHERE op LIKE 'entity.%alias' ORDER BY id").pluck().all();
    expect(audit).toEqual(['entity.alias', 'entity.unalias']);
  });

  it('an alias makes "Anna" and person.anna one entity in every tier', async () => {
    await ok('/remember', {
      entity_name: 'Anna',
      fact: 'Anna takes the early train on Mondays',
      entity_type: 'person',
    });
    await ok('/alias', { entity_name: 'Anna', alias: 'person.anna' });
    await ok('/alias', { entity_name: 'person.anna', alias: 'Mum' });
    const before = entityCount();

    // memories: written under one name, found under the others
    await ok('/remember', { entity_name: 'person.anna', fact: 'Anna is allergic to cats' });
    const recalled = await ok('/recall', { query: 'allergic cats', entity_name: 'Mum', mode: 'keyword' });
    expect(recalled.results.map((r: { entity_name: string; fact: string }) => [r.entity_name, r.fact])).toEqual([
      ['Anna', 'Anna is allergic to cats'],
    ]);
    const ctx = await ok('/get_context', { entity_name: 'mum' });
    expect(ctx.result).toMatch(/early train/);
    expect((await get(hub, '/profile/person.anna')).body.result).toMatch(/allergic to cats/);

    // readings: one series under either name
    await ok('/record', { entity_name: 'person.anna', metric: 'state', value: 'home', ts: hub.clock.now() - 60 });
    await ok('/record', { entity_name: 'Anna', metric: 'state', value: 'away' });
    const points = await ok('/query_stream', { entity_name: 'Mum', metric: 'state', start_ts: 0 });
    expect(points.points.map((p: { value: string }) => p.value)).toEqual(['home', 'away']);

    // spatial: locate under one name, find under another
    await ok('/locate', { entity_name: 'person.anna', container_name: 'kitchen', entity_type: 'person' });
    expect((await ok('/find', { entity_name: 'Mum' })).result).toMatch(/kitchen/);

    // intentions and sessions
    await ok('/intend', {
      entity_name: 'Mum',
      trigger_text: 'when the post arrives',
      action_text: 'ask about the parcel',
    });
    const intentions = (await get(hub, '/intentions?entity_name=person.anna')).body.intentions;
    expect(intentions.map((i: { entity_name: string }) => i.entity_name)).toEqual(['Anna']);
    const session = await ok('/open_session', { entity_name: 'person.anna' });
    expect((await get(hub, `/get_session/${session.session_id}`)).body.session.entity_name).toBe('Anna');

    // relations: to Brian under one name, listed under another; a relation to itself is refused
    await ok('/relate', { entity_a: 'Mum', entity_b: 'Brian', rel_type: 'spouse_of', entity_b_type: 'person' });
    const related = await ok('/get_related', { entity_name: 'person.anna' });
    expect(related.result).toMatch(/Anna spouse_of Brian|Anna spouse of Brian/);
    const self = await post(hub, '/relate', { entity_a: 'Anna', entity_b: 'Mum', rel_type: 'same_as' });
    expect(self.status).toBe(400);
    expect(self.body.message).toMatch(/^entity_b: "Mum" is another name of Anna/);

    expect(entityCount()).toBe(before + 2); // Brian and the kitchen, nothing for "Mum" or person.anna

    // the admin entity page, reached by an alias, lists the other names
    const page = await hub.app.inject({ url: '/admin/entity/person.anna' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<p class="aliases">Also known as Mum, person.anna</p>');
    // admin search finds the entity by an alias
    expect((await hub.app.inject({ url: '/admin/entities?q=mum' })).body).toContain('href="/admin/entity/Anna"');

    // forgetting by an alias is refused unless the entity's own name is confirmed (issue 35 item 4);
    // then its aliases go with it
    expect((await post(hub, '/forget', { entity_name: 'Mum' })).status).toBe(409);
    await ok('/forget', { entity_name: 'Mum', confirm: 'Anna' });
    expect(
      (await post(hub, '/recall', { query: 'cats', entity_name: 'person.anna', mode: 'keyword' })).body.results,
    ).toEqual([]);
    expect(hub.db.prepare('SELECT count(*) FROM entity_aliases').pluck().get()).toBe(0);
  });

  it("the ingest writer's cache notices a removed alias: the name then means a new entity", async () => {
    await ok('/record', { entity_name: 'Anna', metric: 'temperature', value: 36.6 });
    await ok('/alias', { entity_name: 'Anna', alias: 'Mum' });
    await ok('/record', { entity_name: 'Mum', metric: 'temperature', value: 36.7 }); // caches "mum" → Anna
    await ok('/unalias', { alias: 'Mum' });
    await ok('/record', { entity_name: 'Mum', metric: 'temperature', value: 37.9 });
    const anna = await ok('/query_stream', { entity_name: 'Anna', metric: 'temperature', start_ts: 0 });
    expect(anna.points.map((p: { value: number }) => p.value)).toEqual([36.6, 36.7]);
    const mum = await ok('/query_stream', { entity_name: 'Mum', metric: 'temperature', start_ts: 0 });
    expect(mum).toMatchObject({ entity_name: 'Mum', points: [{ value: 37.9 }] });
  });
});

describe('aliases from Home Assistant (POST /alias/homeassistant)', () => {
  it('adds the friendly name to person.anna, or makes person.anna an alias of the assistant\'s "Anna"', async () => {
    await ok('/remember', { entity_name: 'Anna', fact: 'Anna plays the cello', entity_type: 'person' });
    const r = await ok('/alias/homeassistant', {
      names: [
        { entity_id: 'person.anna', friendly_name: 'Anna' },
        { entity_id: 'person.brian', friendly_name: 'Brian' },
      ],
    });
    expect(r.results.map((x: { action: string }) => x.action)).toEqual(['aliased', 'added']);
    expect((await get(hub, '/aliases/Anna')).body.aliases).toMatchObject([
      { alias: 'person.anna', source: 'homeassistant' },
    ]);
    expect((await get(hub, '/aliases/Brian')).body).toMatchObject({
      entity_name: 'person.brian',
      aliases: [{ alias: 'Brian' }],
    });
    // sent again (every poll, every retained replay): nothing changes
    const again = await ok('/alias/homeassistant', { names: [{ entity_id: 'person.anna', friendly_name: 'Anna' }] });
    expect(again.results[0].action).toBe('unchanged');
    const bad = await post(hub, '/alias/homeassistant', {
      names: [{ entity_id: 'sensor.kitchen', friendly_name: 'Kitchen' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/names\.0\.entity_id: .*person entity id/);
  });

  it('never folds two entities by a name (issue 35 item 5): a conflict and a proposal, whatever they hold', async () => {
    // HA's person.anna arrived first, with only its state readings; the assistant's Anna holds memories
    await ok('/record', { entity_name: 'person.anna', metric: 'state', value: 'home', entity_type: 'person' });
    await ok('/remember', { entity_name: 'Anna', fact: 'Anna plays the cello', entity_type: 'person' });
    const first = await ok('/alias/homeassistant', { names: [{ entity_id: 'person.anna', friendly_name: 'Anna' }] });
    expect(first).toMatchObject({ merged: 0, conflicts: 1, proposed: 1 });
    expect(first.results[0]).toMatchObject({ action: 'conflict', entity_name: 'person.anna' });
    expect(first.results[0].message).toMatch(
      /^person\.anna \(friendly name "Anna"\) and Anna are two entities; not merged .*confirm the merge proposed on Anna's admin page, or POST \/entities\/merge \{"source_name": "person\.anna", "target_name": "Anna"\}/,
    );
    expect(entityCount()).toBe(2);
    expect(hub.services.aliases.proposals(hub.services.entities.find('Anna')!.id)).toMatchObject([
      { ha_entity_id: 'person.anna', friendly_name: 'Anna', source_name: 'person.anna', target_name: 'Anna' },
    ]);
    // a replay proposes nothing again; the household's merge closes it
    expect(
      (await ok('/alias/homeassistant', { names: [{ entity_id: 'person.anna', friendly_name: 'Anna' }] })).proposed,
    ).toBe(0);
    expect(hub.db.prepare("SELECT count(*) FROM audit WHERE op = 'entity.alias_proposal'").pluck().get()).toBe(1);
    await ok('/entities/merge', { source_name: 'person.anna', target_name: 'Anna' });
    expect(hub.services.aliases.proposals(hub.services.entities.find('Anna')!.id)).toEqual([]);
    expect((await ok('/query_stream', { entity_name: 'Anna', metric: 'state', start_ts: 0 })).points).toHaveLength(1);

    // Brian: both hold facts → reported, left alone
    await ok('/remember', { entity_name: 'person.brian', fact: 'person.brian is the garage opener account' });
    await ok('/remember', { entity_name: 'Brian', fact: 'Brian likes jazz' });
    const conflict = await ok('/alias/homeassistant', {
      names: [{ entity_id: 'person.brian', friendly_name: 'Brian' }],
    });
    expect(conflict).toMatchObject({ conflicts: 1, merged: 0, added: 0 });
    expect((await get(hub, '/aliases/Brian')).body.aliases).toEqual([]);
    expect(entityCount()).toBe(3);
  });

  it('one HA person\'s name never joins another HA person\'s entity: Bob named "Anna" is a conflict, and no proposal', async () => {
    // Anna is known only through HA: person.anna with presence readings, "Anna" its friendly name
    await ok('/record', { entity_name: 'person.anna', metric: 'state', value: 'home', entity_type: 'person' });
    await ok('/alias/homeassistant', { names: [{ entity_id: 'person.anna', friendly_name: 'Anna' }] });
    const bob = await ok('/alias/homeassistant', { names: [{ entity_id: 'person.bob', friendly_name: 'Anna' }] });
    expect(bob).toMatchObject({ added: 0, conflicts: 1, proposed: 0 });
    expect(bob.results[0].message).toContain(
      'person.bob says its name is "Anna", but person.anna is already Home Assistant\'s person.anna',
    );
    expect((await get(hub, '/aliases/person.bob')).status).toBe(404);
    // Bob's presence readings stay Bob's
    await ok('/record', { entity_name: 'person.bob', metric: 'state', value: 'away', entity_type: 'person' });
    expect((await ok('/query_stream', { entity_name: 'Anna', metric: 'state', start_ts: 0 })).points).toMatchObject([
      { value: 'home' },
    ]);
  });
});

describe('aliases over MCP', () => {
  it('add_alias and remove_alias; a taken name is a tool error that says so', async () => {
    const { http } = await hub.start();
    const client = new Client({ name: 'aliases', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${http}/mcp`)));
    try {
      await ok('/remember', { entity_name: 'Anna', fact: 'Anna likes green tea' });
      await ok('/remember', { entity_name: 'Brian', fact: 'Brian likes coffee' });
      const added = await client.callTool({ name: 'add_alias', arguments: { entity_name: 'Anna', alias: 'Mum' } });
      expect(added.isError).toBeFalsy();
      expect((await ok('/recall', { query: 'green tea', entity_name: 'Mum', mode: 'keyword' })).results).toHaveLength(
        1,
      );
      const taken = await client.callTool({ name: 'add_alias', arguments: { entity_name: 'Brian', alias: 'Mum' } });
      expect(taken.isError).toBe(true);
      expect(JSON.stringify(taken.content)).toMatch(/already an alias of Anna/);
      const removed = await client.callTool({ name: 'remove_alias', arguments: { alias: 'Mum' } });
      expect(removed.isError).toBeFalsy();
      expect((await get(hub, '/aliases/Anna')).body.aliases).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
