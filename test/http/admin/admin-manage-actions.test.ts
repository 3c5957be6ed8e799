/**
 * Entity management from the admin pages (issue #29 item 2), over inject with a logged-in session:
 * CSRF refused, mistakes answered by their field (4xx, never 5xx), each action through s.manage
 * audited as `admin`, the API agreeing afterwards; and the dashboard's recent changes in words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, get, post, type TestHub } from '../../helpers/hub.js';
import { form, login, TOKEN } from './helpers.js';

let hub: TestHub;
let auth: { cookie: string; csrf: string };
const bearer = { authorization: `Bearer ${TOKEN}` };
const HOSTILE = '<img src=x onerror=alert(1)>"Bob\'';

beforeAll(async () => {
  hub = await buildTestHub({ config: { http: { token: TOKEN } } });
  auth = await login(hub);
});
afterAll(async () => {
  await hub?.close();
});

const api = async (url: string, body: unknown) => (await post(hub, url, body, bearer)).body;
const page = async (url: string) => hub.app.inject({ url, headers: { cookie: auth.cookie } });
const send = (url: string, fields: Record<string, string>) =>
  form(hub, url, { _csrf: auth.csrf, ...fields }, { cookie: auth.cookie });
const names = async () =>
  ((await get(hub, '/entities', bearer)).body.entities as { name: string }[]).map((e) => e.name);
const lastAudit = (op: string) => hub.services.audit.query({ op, limit: 1 })[0];
const seg = encodeURIComponent;
/** The hidden fields a preview page's confirm form carries: which entity, and the version it showed. */
const previewed = (body: string) =>
  Object.fromEntries(
    [...body.matchAll(/<input type="hidden" name="(entity_id|source_id|target_id|version)" value="([^"]*)">/g)].map(
      (m) => [m[1], m[2]],
    ),
  );
/** The page a 303 leads to, with the one-time message cookie it set. */
async function follow(res: { statusCode: number; headers: Record<string, unknown> }) {
  expect(res.statusCode).toBe(303);
  const flash = String(res.headers['set-cookie'] ?? '').split(';')[0];
  return (
    await hub.app.inject({
      url: String(res.headers.location),
      headers: { cookie: `${auth.cookie}; ${flash}`, accept: 'text/html' },
    })
  ).body;
}

describe('CSRF and mistakes', () => {
  it('a form without the page token, or from another site, changes nothing', async () => {
    await api('/remember', { entity_name: 'Carl', fact: 'Carl fixes bikes' });
    const none = await form(hub, '/admin/entity/Carl/rename', { new_name: 'Karl' }, { cookie: auth.cookie });
    expect(none.statusCode).toBe(403);
    const foreign = await form(
      hub,
      '/admin/entity/Carl/delete',
      { _csrf: auth.csrf },
      { cookie: auth.cookie, origin: 'https://evil.example' },
    );
    expect(foreign.statusCode).toBe(403);
    const relation = await api('/relate', { entity_a: 'Carl', entity_b: 'Bike', rel_type: 'owns' });
    expect(
      (await form(hub, `/admin/relation/${relation.id}/end`, { _csrf: `${auth.csrf}x` }, { cookie: auth.cookie }))
        .statusCode,
    ).toBe(403);
    expect(await names()).toEqual(expect.arrayContaining(['Carl', 'Bike']));
    expect((await api('/get_related', { entity_name: 'Carl' })).relations).toHaveLength(1);
  });

  it('an empty, taken or unknown name answers the entity page with the message by its field', async () => {
    await api('/remember', { entity_name: 'Dora', fact: 'Dora paints' });
    const empty = await send('/admin/entity/Dora/rename', { new_name: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toMatch(
      /<span class="error field-error" id="error-new_name" role="alert">This is empty<\/span>/,
    );
    const taken = await send('/admin/entity/Dora/rename', { new_name: 'carl' });
    expect(taken.statusCode).toBe(409);
    expect(taken.body).toContain(
      'id="error-new_name" role="alert">&quot;carl&quot; already names Carl; merge the two instead</span>',
    );
    expect(taken.body).toContain('value="carl"'); // as typed
    const type = await send('/admin/entity/Dora/type', { type: '' });
    expect([type.statusCode, type.body.includes('id="error-type"')]).toEqual([400, true]);
    const self = await page('/admin/entity/Dora/merge?other=dora');
    expect([self.statusCode, self.body.includes('Choose another entity than this one')]).toEqual([400, true]);
    const unknown = await page('/admin/entity/Dora/merge?other=Nobody');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('id="error-other" role="alert">no entity named &quot;Nobody&quot;</span>');
    const long = await send('/admin/entity/Dora/rename', { new_name: 'x'.repeat(300) });
    expect([long.statusCode, long.body.includes('This is too long')]).toEqual([400, true]);
    expect((await send('/admin/relation/abc/end', {})).statusCode).toBe(400);
    expect((await send('/admin/relation/99999/end', {})).statusCode).toBe(404);
    expect((await page('/admin/entity/Nobody/delete')).statusCode).toBe(404);
    expect(await names()).toContain('Dora');
  });
});

describe('actions', () => {
  it('merge: the preview lists what moves and changes nothing; confirm moves it, audited as admin; the API agrees', async () => {
    await api('/remember', { entity_name: 'Brian', fact: 'Brian likes strong coffee', entity_type: 'person' });
    await api('/remember', { entity_name: 'Bryan', fact: 'Bryan plays the trumpet' });
    await api('/relate', { entity_a: 'Bryan', entity_b: 'Rex', rel_type: 'owns' });
    const entity = await page('/admin/entity/Bryan');
    expect(entity.body).toContain('<form method="get" action="/admin/entity/Bryan/merge"');
    expect(entity.body).toContain('<option value="Brian"></option>');

    const preview = await page('/admin/entity/Bryan/merge?other=Brian&keep=other');
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toContain('<title>Merge Bryan into Brian? · Hearth</title>');
    expect(preview.body).toMatch(
      /<li><strong>1<\/strong> fact<\/li>[\s\S]*<li>Bryan plays the trumpet<\/li>[\s\S]*<li>Bryan owns Rex<\/li>/,
    );
    expect(preview.body).toContain('href="/admin/entity/Bryan/merge?other=Brian&amp;keep=this">The other way round');
    expect(await names()).toContain('Bryan');

    const done = await send('/admin/entity/Bryan/merge', { other: 'Brian', keep: 'other', ...previewed(preview.body) });
    expect([done.statusCode, done.headers.location]).toEqual([303, '/admin/entity/Brian']);
    expect(await names()).not.toContain('Bryan');
    expect((await api('/recall', { query: 'trumpet' })).results[0]).toMatchObject({
      entity_name: 'Brian',
      fact: 'Bryan plays the trumpet',
    });
    expect(lastAudit('entity.merge')).toMatchObject({ actor: 'admin', target: 'Brian', before: { source: 'Bryan' } });
    const after = { body: await follow(done) };
    expect(after.body).toContain(
      'Merged Bryan into Brian (1 fact, 1 relation to another entity). “Bryan” is now another name of Brian.',
    );
    expect(after.body).toContain('Also known as Bryan');
  });

  it('rename, rename back, change type and end a relation — each audited as admin, with how to undo it', async () => {
    await api('/remember', { entity_name: 'Rex', fact: 'Rex sleeps in the hall' });
    const rel = await api('/relate', { entity_a: 'Anna', entity_b: 'Rex', rel_type: 'walks' });
    const renamed = await send('/admin/entity/Rex/rename', { new_name: 'Rexy' });
    expect([renamed.statusCode, renamed.headers.location]).toEqual([303, '/admin/entity/Rexy']);
    expect(await follow(renamed)).toContain('Renamed Rex to Rexy. To undo, rename it back below.');
    expect(lastAudit('entity.rename')).toMatchObject({
      actor: 'admin',
      before: { name: 'Rex' },
      after: { name: 'Rexy' },
    });
    expect((await send('/admin/entity/Rexy/rename', { new_name: 'Rex' })).headers.location).toBe('/admin/entity/Rex');
    expect(await names()).toContain('Rex');

    expect((await send('/admin/entity/Rex/type', { type: 'pet' })).statusCode).toBe(303);
    expect(
      ((await get(hub, '/entities', bearer)).body.entities as { name: string; type: string }[]).find(
        (e) => e.name === 'Rex',
      )?.type,
    ).toBe('pet');
    expect(lastAudit('entity.type')).toMatchObject({ actor: 'admin', after: { type: 'pet' } });

    const anna = await page('/admin/entity/Anna');
    expect(anna.body).toContain(`<form method="post" action="/admin/relation/${rel.id}/end" class="inline">`);
    const ended = await send(`/admin/relation/${rel.id}/end`, { next: '/admin/entity/Anna' });
    expect([ended.statusCode, ended.headers.location]).toEqual([303, '/admin/entity/Anna']);
    expect((await api('/get_related', { entity_name: 'Anna' })).relations).toEqual([]);
    expect(lastAudit('relation.end')).toMatchObject({ actor: 'admin', target: String(rel.id) });
    expect((await page('/admin/entity/Anna')).body).not.toContain(`/admin/relation/${rel.id}/end`);
  });

  it('delete: the confirm page lists what goes; confirm deletes it, audited; a hostile name is text everywhere', async () => {
    await api('/remember', { entity_name: HOSTILE, fact: 'fact <script>alert(2)</script>' });
    const confirm = await page(`/admin/entity/${seg(HOSTILE)}/delete`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).not.toContain('<img src=x');
    expect(confirm.body).not.toContain('<script>alert(2)');
    expect(confirm.body).toContain('<li>fact &lt;script&gt;alert(2)&lt;/script&gt;</li>');
    const merge = await page(`/admin/entity/Carl/merge?other=${seg(HOSTILE)}`);
    expect(merge.statusCode).toBe(200);
    expect(merge.body).not.toContain('<img src=x');
    const done = await send(`/admin/entity/${seg(HOSTILE)}/delete`, previewed(confirm.body));
    expect([done.statusCode, done.headers.location]).toEqual([303, '/admin/entities']);
    expect(await names()).not.toContain(HOSTILE);
    expect(lastAudit('entity.forget')).toMatchObject({ actor: 'admin', target: HOSTILE });
    const recent = (await page('/admin/')).body;
    expect(recent).toContain(
      '<span title="memory.add">Remembered about</span> &lt;img src=x onerror=alert(1)&gt;&quot;Bob&#39;: ‘fact &lt;script&gt;alert(2)&lt;/script&gt;’ <span class="muted">(since forgotten)</span>',
    );
    expect(await follow(done)).toContain('Deleted &lt;img src=x onerror=alert(1)&gt;&quot;Bob&#39; with 1 fact');
  });
});

describe('a stale page never destroys another entity (issue 35 item 4)', () => {
  it('a delete page of Bryan left open while Bryan was merged into Brian deletes nothing (409, said on the page)', async () => {
    await api('/remember', { entity_name: 'Gwen', fact: 'Gwen grows tomatoes', entity_type: 'person' });
    await api('/remember', { entity_name: 'Gwenn', fact: 'Gwenn keeps bees' });
    const stale = await page('/admin/entity/Gwenn/delete');
    expect(stale.body).toMatch(/<input type="hidden" name="entity_id" value="\d+">/);
    await api('/entities/merge', { source_name: 'Gwenn', target_name: 'Gwen' });
    const click = await send('/admin/entity/Gwenn/delete', previewed(stale.body));
    expect(click.statusCode).toBe(409);
    expect(click.body).toContain('id="error-delete" role="alert"');
    expect(click.body).toContain('&quot;Gwenn&quot; is now another name of Gwen');
    expect(await names()).toContain('Gwen');
    expect((await api('/recall', { query: 'bees', mode: 'keyword' })).results).toHaveLength(1);

    // Gwen's own page, opened before the merge, is stale too: Gwen holds more now.
    await api('/remember', { entity_name: 'Hal', fact: 'Hal fixes clocks' });
    await api('/remember', { entity_name: 'Hall', fact: 'Hall sings bass' });
    const before = await page('/admin/entity/Hal/delete');
    await api('/entities/merge', { source_name: 'Hall', target_name: 'Hal' });
    const late = await send('/admin/entity/Hal/delete', previewed(before.body));
    expect(late.statusCode).toBe(409);
    expect(late.body).toContain('Hal changed since the preview (it now holds 2 facts');
    expect(await names()).toContain('Hal');
    // a form without what the page showed is refused before anything happens
    expect((await send('/admin/entity/Hal/delete', {})).statusCode).toBe(400);
    // reached under the old name, the page says whom it deletes; its own confirm goes ahead
    const fresh = await page('/admin/entity/Hall/delete');
    expect(fresh.body).toContain('“Hall” is another name of Hal: this deletes Hal.');
    const done = await send('/admin/entity/Hal/delete', previewed(fresh.body));
    expect(done.statusCode).toBe(303);
    expect(await names()).not.toContain('Hal');
  });

  it('a merge preview left open while its entities changed merges nothing', async () => {
    await api('/remember', { entity_name: 'Ivo', fact: 'Ivo rows on Saturdays' });
    await api('/remember', { entity_name: 'Iwo', fact: 'Iwo reads maps' });
    const preview = await page('/admin/entity/Iwo/merge?other=Ivo&keep=other');
    await api('/remember', { entity_name: 'Iwo', fact: 'Iwo keeps the spare key' });
    const click = await send('/admin/entity/Iwo/merge', { other: 'Ivo', keep: 'other', ...previewed(preview.body) });
    expect(click.statusCode).toBe(409);
    expect(click.body).toContain('changed since the preview');
    expect(await names()).toEqual(expect.arrayContaining(['Ivo', 'Iwo']));
  });
});

describe('merges Home Assistant names propose (issue 35 item 5)', () => {
  it('the entity page shows the proposal; its preview and confirm merge, and then it is gone', async () => {
    await api('/record', { entity_name: 'person.jo', metric: 'state', value: 'home', entity_type: 'person' });
    await api('/remember', { entity_name: 'Jo', fact: 'Jo plays chess', entity_type: 'person' });
    const r = await api('/alias/homeassistant', { names: [{ entity_id: 'person.jo', friendly_name: 'Jo' }] });
    expect(r).toMatchObject({ conflicts: 1, proposed: 1, merged: 0 });
    const jo = (await page('/admin/entity/Jo')).body;
    expect(jo).toContain('Home Assistant calls its person <code>person.jo</code> “Jo”, which already names Jo here.');
    const link = /href="([^"]+)" data-action="proposal-preview"/.exec(jo)![1].replaceAll('&amp;', '&');
    expect(link).toBe('/admin/entity/person.jo/merge?other=Jo&keep=other');
    expect((await page('/admin/entity/person.jo')).body).toContain('data-action="proposal-preview"');
    const preview = await page(link);
    expect(preview.body).toContain('<title>Merge person.jo into Jo? · Hearth</title>');
    const done = await send('/admin/entity/person.jo/merge', {
      other: 'Jo',
      keep: 'other',
      ...previewed(preview.body),
    });
    expect([done.statusCode, done.headers.location]).toEqual([303, '/admin/entity/Jo']);
    expect((await page('/admin/entity/Jo')).body).not.toContain('data-action="proposal-preview"');
    expect((await api('/query_stream', { entity_name: 'Jo', metric: 'state', start_ts: 0 })).points).toHaveLength(1);
  });
});

describe('recent changes in words', () => {
  it('names every change with its entity and fact, never a bare id', async () => {
    await api('/relate', { entity_a: 'Leo', entity_b: 'Scooter', rel_type: 'owns' });
    const m = await api('/remember', { entity_name: 'Rosa', fact: 'Rosa likes tea' });
    await api('/forget', { memory_id: m.id });
    await api('/intend', {
      entity_name: 'Anna',
      trigger_text: 'when Anna mentions the dentist',
      action_text: 'remind her to book',
    }).catch(() => undefined);
    await api('/locate', { entity_name: 'spare key', container_name: 'kitchen drawer' });
    await send('/admin/entity/Rex/type', { type: 'dog' });
    const body = (await page('/admin/')).body;
    const recent = body.slice(body.indexOf('<h2>Recent changes</h2>'));
    const text = recent.replace(/<[^>]*>/g, '');
    expect(text).toContain('Related Leo → owns → Scooter');
    expect(text).toContain('Forgot a memory of Rosa: ‘Rosa likes tea’ (since forgotten)');
    expect(text).toContain('Put spare key in kitchen drawer');
    expect(text).toContain('you (admin page)Changed the type of Rex: pet → dog');
    expect(text).not.toMatch(/\| \d+|memory \d+|relation\.add|\(admin\)/);
    expect(recent).toContain('<span title="relation.add">Related</span> <a href="/admin/entity/Leo">Leo</a>');
    expect(recent).toMatch(/<time datetime="\d{4}-\d\d-\d\dT/);
  });
});
