/** Form mistakes answer the entity page as typed with plain messages; every action says what it did. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, rememberByHand, type TestHub } from '../../helpers/hub.js';
import { form, login, TOKEN } from './helpers.js';

let hub: TestHub;
let auth: { cookie: string; csrf: string };
const html = { accept: 'text/html,application/xhtml+xml' };

beforeAll(async () => {
  hub = await buildTestHub({ config: { http: { token: TOKEN } } });
  auth = await login(hub);
  await rememberByHand(
    hub,
    'Brian',
    'Brian keeps the bedroom at 68°F at night',
    { category: 'preference', entity_type: 'person' },
    'http',
  );
  await hub.services.timeseries.record({
    entity_name: 'bedroom',
    metric: 'temperature',
    value: 21,
    unit: '°C',
    source: 'api',
  });
});
afterAll(async () => {
  await hub?.close();
});

/** Follows a 303 with the cookie, as a browser does, and returns the page. */
async function follow(res: { statusCode: number; headers: Record<string, unknown> }) {
  expect(res.statusCode).toBe(303);
  const flash = String(res.headers['set-cookie'] ?? '').split(';')[0];
  return hub.app.inject({
    url: String(res.headers.location),
    headers: { cookie: `${auth.cookie}; ${flash}`, ...html },
  });
}
const flashOf = (body: string) => /<p class="flash" role="status" id="flash">([^<]*)<\/p>/.exec(body)?.[1];

describe('form mistakes', () => {
  it('a fact of only spaces: the entity page again, the message by the field, the form as typed', async () => {
    const res = await form(
      hub,
      '/admin/entity/Brian/remember',
      { _csrf: auth.csrf, fact: '   ', category: 'habit', fact_key: 'night_temp' },
      { cookie: auth.cookie, ...html },
    );
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('<h1>Brian</h1>');
    expect(res.body).toMatch(
      /<label>Fact <span class="error field-error" id="error-fact" role="alert">The fact is empty<\/span>/,
    );
    expect(res.body).toContain('<option value="habit" selected>');
    expect(res.body).toContain('value="night_temp"');
    expect(res.body).toContain('<details class="add" open>');
    expect(res.body).not.toMatch(/must not be empty|Back to the dashboard/);
  });

  it('an over-long key says how long it may be and keeps the fact', async () => {
    const res = await form(
      hub,
      '/admin/entity/Brian/remember',
      { _csrf: auth.csrf, fact: 'Brian reads before sleep', fact_key: 'k'.repeat(101) },
      { cookie: auth.cookie, ...html },
    );
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('The key can be at most 100 characters');
    expect(res.body).toContain('>Brian reads before sleep</textarea>');
    expect(res.body).not.toMatch(/Too big|expected string/);
  });

  it('an empty edit reopens that row with the message', async () => {
    const id = hub.services.overview.memoriesOf(hub.services.entities.get('Brian', 'name').id)[0].id;
    const res = await form(
      hub,
      `/admin/memory/${id}/edit`,
      { _csrf: auth.csrf, fact: ' ', next: '/admin/entity/Brian' },
      { cookie: auth.cookie, ...html },
    );
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(/<details class="inline" open><summary>Edit<\/summary>[\s\S]*The fact is empty/);
  });

  it('an unknown chart grain falls back to the default; a broken address is an HTML page for a browser', async () => {
    const bogus = await hub.app.inject({
      url: '/admin/entity/bedroom?g=bogus',
      headers: { cookie: auth.cookie, ...html },
    });
    expect(bogus.statusCode).toBe(200);
    expect(bogus.body).toContain('series.json?metric=temperature&amp;g=raw');
    const broken = await hub.app.inject({ url: '/admin/entity/%E0%A4%A', headers: { cookie: auth.cookie, ...html } });
    expect(broken.statusCode).toBe(400);
    expect(broken.headers['content-type']).toMatch(/^text\/html/);
    expect(broken.headers['content-security-policy']).toMatch(/^default-src 'none'/);
    expect(broken.body).toContain('This address is broken');
    const script = await hub.app.inject({ url: '/admin/entity/%E0%A4%A', headers: { cookie: auth.cookie } });
    expect(script.json()).toMatchObject({ ok: false, error: 'invalid' });
  });

  it('an error page links back to the page the form came from', async () => {
    const res = await form(
      hub,
      '/admin/memory/999999/confirm',
      { _csrf: auth.csrf, next: '/admin/entity/Brian' },
      { cookie: auth.cookie, ...html },
    );
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<a href="/admin/entity/Brian">Back to the page you came from</a>');
  });
});

describe('what each action says', () => {
  it('add, add again, edit and forget each leave a one-time message, and the counts follow', async () => {
    const added = await follow(
      await form(
        hub,
        '/admin/entity/Brian/remember',
        { _csrf: auth.csrf, fact: 'Brian drinks <b>black</b> coffee', category: 'preference' },
        { cookie: auth.cookie },
      ),
    );
    expect(flashOf(added.body)).toBe('Saved: Brian drinks &lt;b&gt;black&lt;/b&gt; coffee');
    const again = await follow(
      await form(
        hub,
        '/admin/entity/Brian/remember',
        { _csrf: auth.csrf, fact: 'Brian drinks <b>black</b> coffee', category: 'preference' },
        { cookie: auth.cookie },
      ),
    );
    expect(flashOf(again.body)).toBe('Already known — confirmed: Brian drinks &lt;b&gt;black&lt;/b&gt; coffee');
    const brian = hub.services.entities.get('Brian', 'name').id;
    const coffee = hub.services.overview.memoriesOf(brian).find((m) => m.fact.includes('coffee'))!;
    const edited = await follow(
      await form(
        hub,
        `/admin/memory/${coffee.id}/edit`,
        { _csrf: auth.csrf, fact: 'Brian drinks tea', next: '/admin/entity/Brian' },
        { cookie: auth.cookie },
      ),
    );
    expect(flashOf(edited.body)).toBe('Saved: Brian drinks tea');
    const tea = hub.services.overview.memoriesOf(brian).find((m) => m.fact === 'Brian drinks tea')!;
    const before = hub.services.overview.memoriesOf(brian).length;
    const hx = await form(
      hub,
      `/admin/memory/${tea.id}/forget`,
      { _csrf: auth.csrf, next: '/admin/entity/Brian' },
      { cookie: auth.cookie, 'hx-request': 'true' },
    );
    expect(JSON.parse(String(hx.headers['hx-trigger']))).toEqual({ 'hearth:memories': { count: before - 1 } });
    const page = (await hub.app.inject({ url: '/admin/entity/Brian', headers: { cookie: auth.cookie } })).body;
    expect(page).toContain(`Memories (<span id="memory-count">${before - 1}</span>)`);
    expect(flashOf(page)).toBeUndefined(); // no cookie, no message
    const r = await hub.services.memory.remember(
      { entity_name: 'Brian', fact: 'Brian hums in the shower', category: 'habit', confidence: 1, source: 'manual' },
      'http',
    );
    const forgotten = await follow(
      await form(
        hub,
        `/admin/memory/${r.id}/forget`,
        { _csrf: auth.csrf, next: '/admin/entity/Brian' },
        { cookie: auth.cookie },
      ),
    );
    expect(flashOf(forgotten.body)).toBe('Forgotten: Brian hums in the shower');
    expect(String(forgotten.headers['set-cookie'])).toMatch(/^hearth_flash=; Max-Age=0/);
  });

  it('a message the hub did not sign is not shown', async () => {
    const fake = `hearth_flash=${Buffer.from('Your hub is hacked').toString('base64url')}.9999999999.forged`;
    const res = await hub.app.inject({ url: '/admin/', headers: { cookie: `${auth.cookie}; ${fake}` } });
    expect(res.body).not.toContain('hacked');
  });
});

describe('plain words for values and history', () => {
  it('a composite reading reads as words; History names the replacing fact', async () => {
    await hub.services.timeseries.record({
      entity_name: 'Anna',
      metric: 'mood',
      value: { mood: 'calm', confidence: 0.9 },
      source: 'api',
    } as never);
    const anna = (await hub.app.inject({ url: '/admin/entity/Anna', headers: { cookie: auth.cookie } })).body;
    expect(anna).toContain('<strong>mood calm, confidence 0.9</strong>');
    expect(anna).not.toContain('{&quot;mood&quot;');
    const r = await hub.services.memory.remember(
      {
        entity_name: 'Anna',
        fact: 'Anna wakes at 6:30',
        category: 'routine',
        confidence: 1,
        source: 'manual',
        fact_key: 'wake',
      },
      'http',
    );
    await hub.services.memory.remember(
      {
        entity_name: 'Anna',
        fact: 'Anna wakes at 7:15',
        category: 'routine',
        confidence: 1,
        source: 'manual',
        fact_key: 'wake',
      },
      'http',
    );
    expect(hub.services.memory.get(r.id)!.status).toBe('superseded');
    const page = (await hub.app.inject({ url: '/admin/entity/Anna', headers: { cookie: auth.cookie } })).body;
    expect(page).toContain('<td data-label="Replaced by">Anna wakes at 7:15</td>');
  });
});

describe('recent changes in words', () => {
  it('the dashboard says who did what to which fact, linked to its entity, with no bare ids', async () => {
    await hub.services.memory.remember(
      {
        entity_name: 'Leo',
        fact: 'Leo <b>loves</b> dinosaurs',
        category: 'preference',
        confidence: 1,
        source: 'manual',
      },
      'mcp',
    );
    const gone = await hub.services.memory.remember(
      { entity_name: 'Leo', fact: 'Leo has a red scooter', category: 'general', confidence: 1, source: 'manual' },
      'http',
    );
    hub.services.memory.forget({ memory_id: gone.id }, 'admin');
    const body = (await hub.app.inject({ url: '/admin/', headers: { cookie: auth.cookie } })).body;
    const recent = body.slice(body.indexOf('<h2>Recent changes</h2>'));
    expect(recent).toContain(
      '<td data-label="Who"><span title="mcp">an assistant</span></td><td data-label="What changed" class="change"><span title="memory.add">Remembered about</span> <a href="/admin/entity/Leo">Leo</a>: ‘Leo &lt;b&gt;loves&lt;/b&gt; dinosaurs’</td>',
    );
    expect(recent).toContain(
      '<td data-label="Who"><span title="admin">you (admin page)</span></td><td data-label="What changed" class="change"><span title="memory.forget">Forgot a memory of</span> <a href="/admin/entity/Leo">Leo</a>: ‘Leo has a red scooter’ <span class="muted">(since forgotten)</span>',
    );
    // the memory added and then forgotten says what it was, not its id
    expect(recent).toContain(
      '<span title="memory.add">Remembered about</span> <a href="/admin/entity/Leo">Leo</a>: ‘Leo has a red scooter’ <span class="muted">(since forgotten)</span>',
    );
    expect(recent).not.toContain(`memory ${gone.id}`);
    // the precise operation is only a tooltip; the text a person reads has no op names and no ids
    expect(recent.replace(/<[^>]*>/g, '')).not.toMatch(/memory\.add|memory\.forget|\bmemory \d+|\| \d+/);
  });
});
