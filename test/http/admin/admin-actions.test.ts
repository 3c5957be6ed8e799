/** Admin actions go through the services the API uses, audited as `admin`; pages show every tier. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, post, type TestHub } from '../../helpers/hub.js';
import { csrfIn, form, login, rememberAt, TOKEN } from './helpers.js';
import { internals } from '../../../src/internals.js';

let hub: TestHub;
let auth: { cookie: string; csrf: string };
const bearer = { authorization: `Bearer ${TOKEN}` };

beforeAll(async () => {
  hub = await buildTestHub({ config: { http: { token: TOKEN } } });
  auth = await login(hub);
});
afterAll(async () => {
  await hub?.close();
});

describe('memory actions', () => {
  it('edit writes a new version through supersession (audited as admin) and recall returns only the correction', async () => {
    const old = await rememberAt(hub, 'Brian', 'Brian prefers the bedroom at 66°F at night', 10);
    const res = await form(
      hub,
      `/admin/memory/${old}/edit`,
      {
        _csrf: auth.csrf,
        fact: 'Brian prefers the bedroom at 68°F at night',
        category: 'preference',
        next: '/admin/entity/Brian',
      },
      { cookie: auth.cookie },
    );
    expect(res.statusCode).toBe(303);
    const before = hub.services.memory.get(old)!;
    expect(before.status).toBe('superseded');
    const now = hub.services.memory.get(before.superseded_by!)!;
    expect(now).toMatchObject({
      fact: 'Brian prefers the bedroom at 68°F at night',
      status: 'active',
      source: 'admin',
      source_trust: 5,
    });
    const audit = hub.services.audit.query({ actor: 'admin', op: 'memory.supersede', limit: 5 });
    expect(audit[0]).toMatchObject({ target: String(now.id) });
    const recall = await post(
      hub,
      '/recall',
      { query: 'what temperature does Brian like at night', entity_name: 'Brian' },
      bearer,
    );
    expect(recall.body.results.map((r: { fact: string }) => r.fact)).toEqual([
      'Brian prefers the bedroom at 68°F at night',
    ]);
    const page = (await hub.app.inject({ url: '/admin/entity/Brian', headers: { cookie: auth.cookie } })).body;
    expect(page).toMatch(/History \(1\)[\s\S]*66°F[\s\S]*superseded/);
  });

  it('edit of a keyed fact keeps its key; a superseded version cannot be edited', async () => {
    const r = await hub.services.memory.remember(
      {
        entity_name: 'Anna',
        fact: 'Anna wakes at 6:30',
        category: 'routine',
        confidence: 1,
        source: 'manual',
        entity_type: 'person',
        fact_key: 'wake_time',
      },
      'http',
    );
    await form(
      hub,
      `/admin/memory/${r.id}/edit`,
      { _csrf: auth.csrf, fact: 'Anna wakes at 7:00' },
      { cookie: auth.cookie },
    );
    const current = internals(hub.services).memoryRepo.activeByKey(r.entity_id, 'wake_time')!;
    expect(current).toMatchObject({ fact: 'Anna wakes at 7:00', category: 'routine' });
    const again = await form(
      hub,
      `/admin/memory/${r.id}/edit`,
      { _csrf: auth.csrf, fact: 'Anna wakes at 8:00' },
      { cookie: auth.cookie },
    );
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('edit the current version');
  });

  it('confirm over htmx answers the updated row; forget answers a gone row and the API agrees', async () => {
    const fading = await rememberAt(hub, 'Carol', 'Carol likes jasmine tea', 300);
    const doomed = await rememberAt(hub, 'Carol', 'Carol plays the cello on Sundays', 300);
    const list = await hub.app.inject({ url: '/fading', headers: bearer });
    expect(list.json().memories.map((m: { id: number }) => m.id)).toEqual(expect.arrayContaining([fading, doomed]));
    const hx = { cookie: auth.cookie, 'hx-request': 'true' };
    const c = await form(hub, `/admin/memory/${fading}/confirm`, { _csrf: auth.csrf, next: '/admin/' }, hx);
    expect(c.statusCode).toBe(200);
    expect(c.body).toMatch(new RegExp(`^<tr id="memory-${fading}"`));
    expect(c.body).toMatch(/100\u00a0%/);
    const f = await form(hub, `/admin/memory/${doomed}/forget`, { _csrf: auth.csrf, next: '/admin/' }, hx);
    expect(f.body).toContain('Forgotten: Carol plays the cello on Sundays');
    const after = (await hub.app.inject({ url: '/fading', headers: bearer }))
      .json()
      .memories.map((m: { id: number }) => m.id);
    expect(after).not.toContain(fading);
    expect(after).not.toContain(doomed);
    expect(hub.services.memory.get(doomed)).toBeUndefined();
    expect(hub.services.audit.query({ actor: 'admin', op: 'memory.*', limit: 10 }).map((a) => a.op)).toEqual(
      expect.arrayContaining(['memory.confirm', 'memory.forget']),
    );
    const missing = await form(hub, `/admin/memory/${doomed}/forget`, { _csrf: auth.csrf }, hx);
    expect(missing.statusCode).toBe(404);
  });

  it('add remembers with trust user; bad input answers 400 naming the field', async () => {
    const res = await form(
      hub,
      '/admin/entity/Carol/remember',
      { _csrf: auth.csrf, fact: 'Carol is allergic to cats', category: 'general' },
      { cookie: auth.cookie },
    );
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/admin/entity/Carol');
    const carol = (await hub.app.inject({ url: '/profile/Carol', headers: bearer })).json();
    expect(carol.memories.map((m: { fact: string }) => m.fact)).toContain('Carol is allergic to cats');
    const bad = await form(
      hub,
      '/admin/entity/Carol/remember',
      { _csrf: auth.csrf, fact: 'x', category: 'gossip' },
      { cookie: auth.cookie },
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/category/);
  });
});

describe('prune', () => {
  it('previews what would go, then deletes only on the POST', async () => {
    const s = hub.services;
    hub.clock.advance(-40 * 86_400);
    for (let i = 0; i < 5; i++)
      await s.timeseries.record({
        entity_name: 'porch',
        metric: 'humidity',
        value: 50 + i,
        source: 'api',
        ts: hub.clock.now() + i * 60,
      });
    hub.clock.advance(40 * 86_400);
    await s.timeseries.record({ entity_name: 'porch', metric: 'humidity', value: 60, source: 'api' });
    const preview = await hub.app.inject({ url: '/admin/prune', headers: { cookie: auth.cookie } });
    expect(preview.body).toContain('Would delete 5 raw readings');
    expect(preview.body).toMatch(/porch[\s\S]*humidity[\s\S]*>5</);
    expect(s.status.snapshot({ readings: true }).readings?.n).toBe(6);
    const csrf = csrfIn(preview.body);
    const done = await form(hub, '/admin/prune', { _csrf: csrf }, { cookie: auth.cookie });
    expect(done.body).toContain('Deleted 5 raw readings');
    expect(s.status.snapshot({ readings: true }).readings?.n).toBe(1);
    expect(s.audit.query({ actor: 'admin', op: 'readings.prune', limit: 1 })).toHaveLength(1);
  });
});

describe('pages and the graph API', () => {
  it('the entity page shows relations, location, readings, schedule, intentions, tasks and sessions', async () => {
    const s = hub.services;
    s.relations.relate({ entity_a: 'Dave', entity_b: 'kitchen', rel_type: 'cooks_in', entity_b_type: 'room' });
    s.spatial.locate({
      entity_name: 'Dave',
      container_name: 'kitchen',
      entity_type: 'person',
      container_type: 'room',
      confidence: 1,
    });
    await s.timeseries.record({ entity_name: 'Dave', metric: 'heart_rate', value: 62, unit: 'bpm', source: 'api' });
    s.schedule.schedule({
      entity_name: 'Dave',
      title: 'Dentist appointment',
      start_ts: hub.clock.now() + 86_400,
    } as never);
    await s.prospective.intend({
      entity_name: 'Dave',
      trigger_text: 'when Dave mentions groceries',
      action_text: 'remind him about milk',
      once: true,
    } as never);
    s.working.wmOpen({ task_name: 'plan the party', entity_name: 'Dave' } as never);
    const session = s.episodic.openSession({ entity_name: 'Dave' } as never);
    s.episodic.logTurn({ session_id: session.session_id, role: 'user', content: 'hello there' } as never);
    const body = (await hub.app.inject({ url: '/admin/entity/Dave?g=hour', headers: { cookie: auth.cookie } })).body;
    for (const text of [
      'cooks in',
      'In <a href="/admin/entity/kitchen">kitchen</a>',
      'heart_rate',
      'data-src="/admin/entity/Dave/series.json?metric=heart_rate&amp;g=hour"',
      'Dentist appointment',
      'remind him about milk',
      'plan the party',
      '<td data-label="Turns">1</td>',
    ]) {
      expect(body, text).toContain(text);
    }
    const series = (
      await hub.app.inject({
        url: '/admin/entity/Dave/series.json?metric=heart_rate&g=hour',
        headers: { cookie: auth.cookie },
      })
    ).json();
    expect(series).toMatchObject({ ok: true, granularity: 'hour', points: [{ count: 1, avg: 62 }] });
    const bad = await hub.app.inject({
      url: '/admin/entity/Dave/series.json?metric=heart_rate&g=minute',
      headers: { cookie: auth.cookie },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ ok: false, error: 'invalid', message: expect.stringMatching(/^g: /) });
  });

  it('entities search is literal and filters by type', async () => {
    const body = (await hub.app.inject({ url: '/admin/entities?q=dav', headers: { cookie: auth.cookie } })).body;
    expect(body).toContain('href="/admin/entity/Dave"');
    expect(body).not.toContain('href="/admin/entity/Carol"');
    const rooms = (await hub.app.inject({ url: '/admin/entities?type=room', headers: { cookie: auth.cookie } })).body;
    expect(rooms).toContain('href="/admin/entity/kitchen"');
    expect(rooms).not.toContain('href="/admin/entity/Dave"');
    expect((await hub.app.inject({ url: '/admin/entities?q=%25', headers: { cookie: auth.cookie } })).body).toContain(
      'No entity matches.',
    );
  });

  it('/api/graph answers {nodes, edges} in the seed shape, filterable by type', async () => {
    const all = (await hub.app.inject({ url: '/api/graph', headers: bearer })).json();
    const dave = all.nodes.find((n: { label: string }) => n.label === 'Dave');
    const kitchen = all.nodes.find((n: { label: string }) => n.label === 'kitchen');
    expect(dave).toMatchObject({ id: expect.any(Number), type: 'person' });
    expect(all.edges).toContainEqual({
      id: expect.any(Number),
      from: dave.id,
      to: kitchen.id,
      label: 'cooks_in',
      kind: 'relation',
    });
    expect(all.edges).toContainEqual({
      id: expect.any(Number),
      from: dave.id,
      to: kitchen.id,
      label: 'in',
      kind: 'location',
    }); // located there
    const people = (await hub.app.inject({ url: '/api/graph?type=person', headers: bearer })).json();
    expect(people.nodes.every((n: { type: string }) => n.type === 'person')).toBe(true);
    expect(people.edges.some((e: { label: string }) => e.label === 'cooks_in')).toBe(false);
    const both = (await hub.app.inject({ url: '/api/graph?type=person,room', headers: bearer })).json();
    expect(both.edges.some((e: { label: string }) => e.label === 'cooks_in')).toBe(true);
  });
});

describe('without a token configured (loopback)', () => {
  it('pages open without login, and forms still need the session CSRF token', async () => {
    const open = await buildTestHub();
    try {
      const id = await rememberAt(open, 'Eve', 'Eve likes sailing', 200);
      const page = await open.app.inject({ url: '/admin/' });
      expect(page.statusCode).toBe(200);
      const cookie = String(page.headers['set-cookie']).split(';')[0];
      expect((await open.app.inject({ url: '/admin/assets/admin.css' })).headers['set-cookie']).toBeUndefined(); // only pages start sessions
      expect((await open.app.inject({ url: '/api/graph' })).json()).toMatchObject({
        ok: true,
        nodes: [{ label: 'Eve' }],
      });
      expect((await form(open, `/admin/memory/${id}/confirm`, {}, { cookie })).statusCode).toBe(403);
      expect(
        (await form(open, `/admin/memory/${id}/confirm`, { _csrf: csrfIn(page.body) }, { cookie })).statusCode,
      ).toBe(303);
    } finally {
      await open.close();
    }
  });
});
