/**
 * Sessions survive a hub restart (signed with the secret in the data dir); logout and expiry still
 * end them; a form refused for an ended login or a stale page is shown again with what was typed.
 */
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestHub, tempDir, type TestHub } from '../../helpers/hub.js';
import { csrfIn, form, login, TOKEN } from './helpers.js';
import { internals } from '../../../src/internals.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function withHub<T>(dir: string, fn: (hub: TestHub) => Promise<T>, token: string | null = TOKEN): Promise<T> {
  const hub = await buildTestHub({ dir, config: token ? { http: { token } } : {} });
  try {
    return await fn(hub);
  } finally {
    await hub.close();
  }
}
const html = { accept: 'text/html,application/xhtml+xml' };
const remember = (hub: TestHub, entity_name: string, fact: string) =>
  hub.services.memory.remember(
    { entity_name, fact, category: 'preference', confidence: 1, source: 'manual', entity_type: 'person' },
    'http',
  );

describe('across a restart', () => {
  it('a login and its CSRF token still work after the hub restarts; the secret file is 0600', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const { auth, id } = await withHub(dir, async (hub) => {
      const r = await remember(hub, 'Brian', 'Brian keeps the bedroom at 68°F at night');
      return { auth: await login(hub), id: r.id };
    });
    expect(statSync(join(dir, 'data', 'admin-secret')).mode & 0o777).toBe(0o600);
    await withHub(dir, async (hub) => {
      expect(
        (await hub.app.inject({ url: '/admin/entity/Brian', headers: { cookie: auth.cookie, ...html } })).statusCode,
      ).toBe(200);
      const res = await form(
        hub,
        `/admin/memory/${id}/edit`,
        { _csrf: auth.csrf, fact: 'Brian keeps the bedroom at 66°F at night', next: '/admin/entity/Brian' },
        { cookie: auth.cookie, ...html },
      );
      expect(res.statusCode).toBe(303);
      expect(hub.services.memory.get(id)!.status).toBe('superseded');
      // Log out: the same cookie stays dead after another restart.
      expect((await form(hub, '/admin/logout', { _csrf: auth.csrf }, { cookie: auth.cookie })).statusCode).toBe(303);
    });
    await withHub(dir, async (hub) => {
      expect((await hub.app.inject({ url: '/admin/', headers: { cookie: auth.cookie } })).statusCode).toBe(401);
    });
  });

  it('a session ends after 12 hours, and a cookie with a changed part is refused', async () => {
    const dir = tempDir();
    dirs.push(dir);
    await withHub(dir, async (hub) => {
      const { cookie } = await login(hub);
      expect((await hub.app.inject({ url: '/admin/', headers: { cookie } })).statusCode).toBe(200);
      // The cookie is secure-session's sealed box and nonce (base64url, joined by a dot).
      const [name, value] = cookie.split('=');
      const [sealed, nonce] = value.split('.');
      const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
      for (const forged of [
        `${flip(sealed, 5)}.${nonce}`,
        `${sealed}.${flip(nonce, 3)}`,
        `${sealed.slice(0, -4)}.${nonce}`,
        sealed,
        `${value}.x`,
      ]) {
        expect(
          (await hub.app.inject({ url: '/admin/', headers: { cookie: `${name}=${forged}` } })).statusCode,
          forged,
        ).toBe(401);
      }
      hub.clock.advance(12 * 3600 + 1);
      expect((await hub.app.inject({ url: '/admin/', headers: { cookie } })).statusCode).toBe(401);
    });
  });
});

describe('a form the hub cannot accept as sent', () => {
  it('without a login, a browser form gets the login form carrying the text; after login it is offered again', async () => {
    const dir = tempDir();
    dirs.push(dir);
    await withHub(dir, async (hub) => {
      await remember(hub, 'Anna', 'Anna likes tea');
      const typed = 'Anna likes green tea <b>not</b> coffee';
      const res = await form(
        hub,
        '/admin/entity/Anna/remember',
        { _csrf: 'whatever', fact: typed, category: 'preference', fact_key: 'drink' },
        html,
      );
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<form method="post" action="/admin/login">');
      expect(res.body).toContain('name="next" value="/admin/entity/Anna"');
      expect(res.body).toContain('name="resume_fact" value="Anna likes green tea &lt;b&gt;not&lt;/b&gt; coffee"');
      expect(res.body).toContain('Your login has ended');
      const fields = Object.fromEntries(
        [...res.body.matchAll(/name="(resume_\w+|next)" value="([^"]*)"/g)].map((m) => [
          m[1],
          m[2].replaceAll('&lt;', '<').replaceAll('&gt;', '>'),
        ]),
      );
      const again = await form(hub, '/admin/login', { token: TOKEN, ...fields });
      expect(again.statusCode).toBe(200);
      expect(again.body).toContain('Logged in: send your change again');
      expect(again.body).toContain(`>Anna likes green tea &lt;b&gt;not&lt;/b&gt; coffee</textarea>`);
      expect(again.body).toContain('value="drink"');
      expect(again.body).toContain('href="/admin/entity/Anna"');
      const cookie = String(again.headers['set-cookie']).split(';')[0];
      const sent = await form(
        hub,
        '/admin/entity/Anna/remember',
        { _csrf: csrfIn(again.body), fact: typed, category: 'preference', fact_key: 'drink' },
        { cookie },
      );
      expect(sent.statusCode).toBe(303);
      expect(
        internals(hub.services).memoryRepo.activeByKey(hub.services.entities.get('Anna', 'name').id, 'drink')?.fact,
      ).toBe(typed);
    });
  });

  it('htmx actions and scripts get plain words or JSON, never a login page', async () => {
    const dir = tempDir();
    dirs.push(dir);
    await withHub(dir, async (hub) => {
      const hx = await form(hub, '/admin/memory/1/forget', { _csrf: 'x', next: '/admin/' }, { 'hx-request': 'true' });
      expect(hx.statusCode).toBe(401);
      expect(hx.headers['content-type']).toMatch(/^text\/plain/);
      expect(hx.body).toMatch(/^Your login has ended\b.*Reload the page/);
      const { cookie } = await login(hub);
      const stale = await form(
        hub,
        '/admin/memory/1/forget',
        { _csrf: 'stale', next: '/admin/' },
        { cookie, 'hx-request': 'true' },
      );
      expect(stale.statusCode).toBe(403);
      expect(stale.body).toBe('This page is out of date. Reload it and try again; nothing was changed.');
      const json = await hub.app.inject({
        method: 'POST',
        url: '/admin/memory/1/forget',
        payload: { next: '/admin/' },
      });
      expect(json.statusCode).toBe(401);
      expect(json.json()).toMatchObject({ ok: false, error: 'unauthorized' });
    });
  });

  it('a stale page (no token configured) answers a page in the layout with the typed text and a link back', async () => {
    const dir = tempDir();
    dirs.push(dir);
    await withHub(
      dir,
      async (hub) => {
        const r = await remember(hub, 'Carol', 'Carol likes jazz');
        const res = await form(
          hub,
          `/admin/memory/${r.id}/edit`,
          { _csrf: 'from-before', fact: 'Carol likes cool jazz', category: 'preference', next: '/admin/entity/Carol' },
          html,
        );
        expect(res.statusCode).toBe(403);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.body).toContain('<link rel="stylesheet" href="/admin/assets/admin.css">');
        expect(res.body).toContain('Send your change again');
        expect(res.body).toContain('>Carol likes cool jazz</textarea>');
        expect(res.body).toContain('<a href="/admin/entity/Carol">Back to the page you came from</a>');
        expect(hub.services.memory.get(r.id)!.status).toBe('active');
        const cookie = String(res.headers['set-cookie']).split(';')[0];
        const sent = await form(
          hub,
          `/admin/memory/${r.id}/edit`,
          { _csrf: csrfIn(res.body), fact: 'Carol likes cool jazz', next: '/admin/entity/Carol' },
          { cookie },
        );
        expect(sent.statusCode).toBe(303);
        expect(hub.services.memory.get(r.id)!.status).toBe('superseded');
        // From another site: refused, and the text is not offered again.
        const foreign = await form(
          hub,
          `/admin/memory/${r.id}/edit`,
          { _csrf: 'x', fact: 'pwned by evil' },
          { ...html, origin: 'https://evil.example' },
        );
        expect(foreign.statusCode).toBe(403);
        expect(foreign.body).not.toContain('pwned by evil');
        expect(foreign.body).not.toMatch(/name="_csrf" value="[^"]+"/);
      },
      null,
    );
  });
});
