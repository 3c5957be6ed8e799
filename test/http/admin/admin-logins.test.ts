/**
 * Issue #26 items 1–4: a login is bound to the token that made it; every door shares one
 * failed-login budget; a form's `next` is checked before the action; a page on another site cannot
 * use up an address's budget.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestHub, tempDir, type TestHub } from '../../helpers/hub.js';
import { csrfIn, form, login, TOKEN } from './helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function withHub<T>(dir: string, token: string | null, fn: (hub: TestHub) => Promise<T>): Promise<T> {
  const hub = await buildTestHub({ dir, config: token ? { http: { token } } : {} });
  try {
    return await fn(hub);
  } finally {
    await hub.close();
  }
}
const html = { accept: 'text/html,application/xhtml+xml' };
const pill = (hub: TestHub) =>
  hub.services.memory.remember(
    {
      entity_name: 'Brian',
      fact: 'Brian takes his blood-pressure pill at 8',
      category: 'health',
      confidence: 1,
      source: 'manual',
      entity_type: 'person',
    },
    'http',
  );

/** The old cookie opens nothing and cannot forget a memory; the new token still logs in. */
async function expectLockedOut(hub: TestHub, auth: { cookie: string; csrf: string }, id: number) {
  for (const url of ['/admin/', '/admin/entity/Brian', '/api/graph', '/graph']) {
    const res = await hub.app.inject({ url, headers: { cookie: auth.cookie, ...html } });
    expect(res.statusCode, url).toBe(401);
    expect(res.body, url).not.toContain('blood-pressure');
  }
  const forget = await form(
    hub,
    `/admin/memory/${id}/forget`,
    { _csrf: auth.csrf, next: '/admin/' },
    { cookie: auth.cookie },
  );
  expect(forget.statusCode).toBe(401);
  const hx = await form(
    hub,
    `/admin/memory/${id}/forget`,
    { _csrf: auth.csrf, next: '/admin/' },
    { cookie: auth.cookie, 'hx-request': 'true' },
  );
  expect(hx.statusCode).toBe(401);
  expect(hub.services.memory.get(id)!.status).toBe('active');
  const fresh = await login(hub);
  expect((await hub.app.inject({ url: '/admin/entity/Brian', headers: { cookie: fresh.cookie } })).statusCode).toBe(
    200,
  );
}

describe('a login is bound to the token that made it (item 1)', () => {
  it('after a restart with a new token, a cookie from the old one opens nothing', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const old = 'the-leaked-token-0123456789';
    const { auth, id } = await withHub(dir, old, async (hub) => {
      const { id } = await pill(hub);
      const res = await form(hub, '/admin/login', { token: old, next: '/admin/' });
      const cookie = String(res.headers['set-cookie']).split(';')[0];
      const page = await hub.app.inject({ url: '/admin/entity/Brian', headers: { cookie } });
      expect(page.statusCode).toBe(200);
      return { auth: { cookie, csrf: csrfIn(page.body) }, id };
    });
    await withHub(dir, TOKEN, (hub) => expectLockedOut(hub, auth, id));
  });

  it('a cookie handed out by a hub without a token opens nothing once a token is set', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const { auth, id } = await withHub(dir, null, async (hub) => {
      const { id } = await pill(hub);
      const page = await hub.app.inject({ url: '/admin/entity/Brian', headers: html });
      const cookie = String(page.headers['set-cookie']).split(';')[0];
      expect(cookie).toMatch(/^hearth_session=/);
      return { auth: { cookie, csrf: csrfIn(page.body) }, id };
    });
    await withHub(dir, TOKEN, (hub) => expectLockedOut(hub, auth, id));
  });
});

describe('one failed-login budget for every door (item 2)', () => {
  it('wrong tokens on /admin/, /api/graph, the login form and the API add up to 429 everywhere', async () => {
    const dir = tempDir();
    dirs.push(dir);
    await withHub(dir, TOKEN, async (hub) => {
      const remoteAddress = '10.1.2.3';
      const get = (url: string, token: string, headers: Record<string, string> = {}) =>
        hub.app.inject({ url, remoteAddress, headers: { authorization: `Bearer ${token}`, ...headers } });
      const loginAs = (token: string) =>
        hub.app.inject({
          method: 'POST',
          url: '/admin/login',
          remoteAddress,
          payload: `token=${token}&next=%2Fadmin%2F`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await get('/admin/', `guess-a${i}`)).statusCode);
      for (let i = 0; i < 3; i++) statuses.push((await get('/api/graph', `guess-g${i}`)).statusCode);
      for (let i = 0; i < 2; i++) statuses.push((await loginAs(`guess-l${i}`)).statusCode);
      for (let i = 0; i < 2; i++) statuses.push((await get('/entities', `guess-e${i}`)).statusCode);
      expect(statuses).toEqual(Array(10).fill(401));
      // The right token now waits at every door, before it is compared.
      for (const url of ['/entities', '/admin/', '/api/graph']) {
        const res = await get(url, TOKEN);
        expect(res.statusCode, url).toBe(429);
        expect(res.json().message, url).toMatch(
          /^rate limit: 10 failed logins within ten minutes from this client; retry in \d+ s$/,
        );
      }
      const page = await get('/admin/entity/Brian', 'x', html);
      expect(page.statusCode).toBe(429);
      expect(page.body).toContain('Too many wrong tokens from this address');
      const right = await loginAs(TOKEN);
      expect(right.statusCode).toBe(429);
      expect(right.headers['set-cookie']).toBeUndefined();
      // Another address is not affected.
      expect(
        (await hub.app.inject({ url: '/api/graph', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode,
      ).toBe(200);
    });
  });
});

describe("a form's next is checked before the action (item 3)", () => {
  it('a carriage return in next answers 400 naming it, and nothing is forgotten', async () => {
    const dir = tempDir();
    dirs.push(dir);
    await withHub(dir, TOKEN, async (hub) => {
      const { id } = await pill(hub);
      const { cookie, csrf } = await login(hub);
      for (const next of ['/admin/\r\nSet-Cookie: x=1', '/admin/entity/Brian\r', '/admin/\n']) {
        for (const action of ['forget', 'confirm']) {
          const res = await form(hub, `/admin/memory/${id}/${action}`, { _csrf: csrf, next }, { cookie, ...html });
          expect(res.statusCode, JSON.stringify(next)).toBe(400);
          expect(res.body).toMatch(/next/);
          expect(res.headers['set-cookie'] ?? '').not.toContain('x=1');
        }
      }
      expect(hub.services.memory.get(id)!.status).toBe('active');
      // A next that is no path of this UI (but sendable) still falls back to the dashboard, after acting.
      const ok = await form(
        hub,
        `/admin/memory/${id}/forget`,
        { _csrf: csrf, next: '/admin/entity/Brian\u00e9\u20ac' },
        { cookie },
      );
      expect(ok.statusCode).toBe(303);
      expect(ok.headers.location).toBe('/admin/');
      expect(hub.services.memory.get(id)?.status).not.toBe('active');
    });
  });
});

describe('a page on another site cannot use up the budget (item 4)', () => {
  it('cross-site logins and URL tokens are refused before they are counted', async () => {
    const dir = tempDir();
    dirs.push(dir);
    await withHub(dir, TOKEN, async (hub) => {
      const remoteAddress = '10.4.4.4';
      const statuses = new Set<number>();
      for (let i = 0; i < 31; i++) {
        statuses.add(
          (
            await hub.app.inject({
              url: '/mcp?token=x',
              remoteAddress,
              headers: { 'sec-fetch-site': 'cross-site', accept: 'image/*' },
            })
          ).statusCode,
        );
        statuses.add(
          (
            await hub.app.inject({
              url: '/sse?token=x',
              remoteAddress,
              headers: { referer: 'http://evil.example/page' },
            })
          ).statusCode,
        );
      }
      for (let i = 0; i < 11; i++) {
        for (const foreign of [
          { origin: 'http://evil.example' },
          { 'sec-fetch-site': 'cross-site' },
          { origin: 'null' },
        ]) {
          const res = await hub.app.inject({
            method: 'POST',
            url: '/admin/login',
            remoteAddress,
            payload: 'token=x',
            headers: { 'content-type': 'application/x-www-form-urlencoded', ...foreign },
          });
          statuses.add(res.statusCode);
        }
      }
      expect([...statuses]).toEqual([403]);
      // The household, from the same address, is not locked out.
      expect(
        (await hub.app.inject({ url: '/entities', remoteAddress, headers: { authorization: `Bearer ${TOKEN}` } }))
          .statusCode,
      ).toBe(200);
      const own = await hub.app.inject({
        method: 'POST',
        url: '/admin/login',
        remoteAddress,
        payload: `token=${TOKEN}`,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          host: 'localhost:80',
          origin: 'http://localhost:80',
        },
      });
      expect(own.statusCode).toBe(303);
      // …and an MCP client's own ?token= (no browser marks) still works.
      const mcp = await hub.app.inject({
        method: 'POST',
        url: `/mcp?token=${TOKEN}`,
        remoteAddress,
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        headers: { accept: 'application/json, text/event-stream' },
      });
      expect(mcp.statusCode).toBe(200);
    });
  });
});
