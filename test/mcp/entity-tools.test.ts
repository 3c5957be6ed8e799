/**
 * Entity management over MCP: merge_entities (with a dry run), rename_entity and set_entity_type, through
 * a real MCP Client over Streamable HTTP against a real hub (SQLite in a temp dir). The service itself is
 * covered in test/tiers/entity-manage.test.ts; this pins the door: the tools exist, act, audit as `mcp`,
 * and refuse what the service refuses as a tool error that says why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildTestHub, get, post, type TestHub } from '../helpers/hub.js';

let hub: TestHub;
let client: Client;
beforeAll(async () => {
  hub = await buildTestHub();
  const { http } = await hub.start();
  client = new Client({ name: 'entity-tools', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${http}/mcp`)));
});
afterAll(async () => {
  await client?.close();
  await hub?.close();
});

const call = async (name: string, args: Record<string, unknown>) => {
  const r = await client.callTool({ name, arguments: args });
  return {
    isError: Boolean(r.isError),
    body: r.structuredContent as Record<string, any>,
    text: JSON.stringify(r.content),
  };
};
const remember = async (entity_name: string, fact: string) =>
  expect((await post(hub, '/remember', { entity_name, fact })).status).toBe(200);
const names = async () => ((await get(hub, '/entities')).body.entities as { name: string }[]).map((e) => e.name);
/** The facts get_profile lists for a name (an alias answers for its entity). */
const factsOf = async (entity_name: string) => {
  const p = await call('get_profile', { entity_name });
  expect(p.isError, p.text).toBe(false);
  return [p.body.entity.name, (p.body.memories as { fact: string }[]).map((m) => m.fact).sort()];
};

describe('entity tools over MCP', () => {
  it('merge_entities previews, then moves everything and keeps the old name as an alias', async () => {
    await remember('Brian', 'Brian likes strong coffee');
    await remember('Bryan', 'Bryan plays the trumpet on Sundays');
    await remember('Bryan', 'Bryan is allergic to cats');

    const preview = await call('merge_entities', { source_name: 'Bryan', target_name: 'Brian', dry_run: true });
    expect(preview.isError, preview.text).toBe(false);
    expect(preview.body.result).toMatch(/^Would merge Bryan into Brian: 2 /);
    expect(preview.body.moves.facts).toHaveLength(2);
    expect(await names()).toEqual(expect.arrayContaining(['Brian', 'Bryan'])); // nothing changed

    const merged = await call('merge_entities', { source_name: 'Bryan', target_name: 'Brian' });
    expect(merged.isError, merged.text).toBe(false);
    expect(merged.body.result).toMatch(/^Merged Bryan into Brian: .*"Bryan" is now another name of Brian/);
    expect(await names()).not.toContain('Bryan');
    // Asked by either name, all three facts are Brian's now.
    for (const n of ['Brian', 'Bryan'])
      expect(await factsOf(n)).toEqual([
        'Brian',
        ['Brian likes strong coffee', 'Bryan is allergic to cats', 'Bryan plays the trumpet on Sundays'],
      ]);
    expect(hub.services.audit.query({ op: 'entity.merge', limit: 5 })[0]).toMatchObject({ actor: 'mcp' });

    // Merging a name into itself (now an alias of the same entity) is refused, naming the field.
    const again = await call('merge_entities', { source_name: 'Bryan', target_name: 'Brian' });
    expect(again.isError).toBe(true);
    expect(again.text).toMatch(/target_name/);
  });

  it('rename_entity corrects a name, refuses one that names another entity, and set_entity_type says what it is', async () => {
    await remember('Rexx', 'Rexx sleeps in a basket by the radiator');
    await remember('Anna', 'Anna is a pediatric nurse');

    const renamed = await call('rename_entity', { entity_name: 'Rexx', new_name: 'Rex' });
    expect(renamed.isError, renamed.text).toBe(false);
    expect(renamed.body).toMatchObject({ entity_name: 'Rex', previous_name: 'Rexx', changed: true });
    expect(await names()).toContain('Rex');
    expect(await names()).not.toContain('Rexx');

    const taken = await call('rename_entity', { entity_name: 'Rex', new_name: 'Anna' });
    expect(taken.isError).toBe(true);
    expect(taken.text).toMatch(/already names Anna; merge the two instead/);
    expect(await names()).toContain('Rex');

    const typed = await call('set_entity_type', { entity_name: 'Rex', type: 'pet' });
    expect(typed.isError, typed.text).toBe(false);
    expect(typed.body).toMatchObject({ entity_name: 'Rex', type: 'pet', changed: true });
    const profile = await call('get_profile', { entity_name: 'Rex' });
    expect(JSON.stringify(profile.body)).toMatch(/"type":"pet"/);

    // Unknown arguments are refused as over HTTP (the schema is strict).
    const extra = await call('set_entity_type', { entity_name: 'Rex', type: 'pet', force: true });
    expect(extra.isError).toBe(true);
  });
});
