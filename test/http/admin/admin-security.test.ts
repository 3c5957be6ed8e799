/** The admin UI's doors: nothing without the token, sessions, CSRF, escaping, headers, page weight. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, type TestHub } from '../../helpers/hub.js';
import { csrfIn, form, login, rememberAt, TOKEN } from './helpers.js';
import { CONTROL, PATH_SEGMENTS, PROTO, SQL, UNICODE } from '../../security/nasty-strings.js';

const HOSTILE = `Brian <script>alert('x')</script><img src=x onerror="alert(1)"> "quoted" & 'single'`;
let hub: TestHub;
let brianFact: number;

beforeAll(async () => {
  hub = await buildTestHub({ config: { http: { token: TOKEN } } });
  brianFact = await rememberAt(hub, 'Brian', HOSTILE, 400);
  await hub.services.memory.remember(
    {
      entity_name: '<b>Evil</b>"name',
      fact: 'an entity with markup in its name',
      category: 'general',
      confidence: 1,
      source: 'manual',
      entity_type: 'person',
    },
    'http',
  );
  hub.services.relations.relate({ entity_a: 'Brian', entity_b: '<b>Evil</b>"name', rel_type: 'knows' });
  await hub.services.timeseries.record({
    entity_name: 'bedroom',
    metric: 'temperature',
    value: 21,
    unit: 'C',
    source: 'api',
  });
});
afterAll(async () => {
  await hub?.close();
});

const PAGES = [
  '/admin',
  '/admin/',
  '/admin/entities',
  '/admin/entities?q=Brian',
  '/admin/entity/Brian',
  '/admin/entity/bedroom/series.json?metric=temperature',
  '/admin/readings',
  '/admin/readings/stream',
  '/admin/prune',
  '/admin/no/such/page',
  '/graph',
  '/graph?type=person',
  '/api/graph',
];
const ASSETS = [
  'admin.css',
  'admin.js',
  'charts.js',
  'stream.js',
  'graph.js',
  'htmx.min.js',
  'uPlot.iife.min.js',
  'uPlot.min.css',
  'cytoscape.min.js',
];
const POSTS = [
  '/admin/memory/1/confirm',
  '/admin/memory/1/forget',
  '/admin/memory/1/edit',
  '/admin/entity/Brian/remember',
  '/admin/prune',
  '/admin/logout',
];

describe('without the token', () => {
  it('every page, asset and action answers 401 and shows no data', async () => {
    for (const url of [...PAGES, ...ASSETS.map((a) => `/admin/assets/${a}`)]) {
      for (const accept of ['application/json', 'text/html,application/xhtml+xml']) {
        const res = await hub.app.inject({ url, headers: { accept } });
        expect(res.statusCode, url).toBe(401);
        // the login form echoes the URL it will return to, nothing else
        expect(res.body.replace(/name="next" value="[^"]*"/, ''), url).not.toMatch(/Brian|bedroom|Evil|temperature/);
        expect(res.headers['cache-control']).toBe('private, no-store');
      }
    }
    for (const url of POSTS) {
      const res = await form(hub, url, { fact: 'x' });
      expect(res.statusCode, url).toBe(401);
    }
    expect((await hub.services.memory.get(brianFact))?.status).toBe('active');
  });

  it('a browser gets the login form in place, with a strict CSP allowing only its own style', async () => {
    const res = await hub.app.inject({ url: '/admin/entity/Brian', headers: { accept: 'text/html' } });
    expect(res.body).toContain('<form method="post" action="/admin/login">');
    expect(res.body).toContain('name="next" value="/admin/entity/Brian"');
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(res.headers['content-security-policy']).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(res.body).not.toMatch(/<script/);
  });

  it('a wrong token is refused; a session cookie is not accepted after logout', async () => {
    const bad = await form(hub, '/admin/login', { token: 'nope', next: '/admin/' });
    expect(bad.statusCode).toBe(401);
    expect(bad.headers['set-cookie']).toBeUndefined();
    const { cookie, csrf } = await login(hub);
    expect((await hub.app.inject({ url: '/admin/', headers: { cookie } })).statusCode).toBe(200);
    const out = await form(hub, '/admin/logout', { _csrf: csrf }, { cookie });
    expect(out.statusCode).toBe(303);
    expect((await hub.app.inject({ url: '/admin/', headers: { cookie } })).statusCode).toBe(401);
  });
});

describe('login throttle', () => {
  it('after ten wrong tokens from one address, even the right one waits (429)', async () => {
    const other = { 'x-forwarded-for': 'ignored' }; // trustProxy is off: the address is the socket's
    const from = { remoteAddress: '10.9.8.7' };
    const attempt = (token: string) =>
      hub.app.inject({
        method: 'POST',
        url: '/admin/login',
        payload: `token=${token}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...other },
        ...from,
      });
    for (let i = 0; i < 10; i++) expect((await attempt('wrong')).statusCode).toBe(401);
    const blocked = await attempt(TOKEN);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['set-cookie']).toBeUndefined();
    expect((await form(hub, '/admin/login', { token: TOKEN })).statusCode).toBe(303); // another address is not affected
  });
});

describe('with a session', () => {
  it('login sets an HttpOnly SameSite=Strict cookie and redirects only within the UI', async () => {
    const res = await form(hub, '/admin/login', { token: TOKEN, next: '/admin/entity/Brian' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/admin/entity/Brian');
    expect(String(res.headers['set-cookie'])).toMatch(
      /^hearth_session=[\w.-]{20,}; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Strict$/,
    );
    for (const next of ['https://evil.example/', '//evil.example/', '/remember', 'javascript:alert(1)']) {
      expect((await form(hub, '/admin/login', { token: TOKEN, next })).headers.location, next).toBe('/admin/');
    }
  });

  it('serves every page with CSP, no-store and no inline script; the bearer header works too', async () => {
    const { cookie } = await login(hub);
    for (const url of PAGES.filter((u) => !u.endsWith('/stream') && u !== '/admin')) {
      for (const headers of [{ cookie }, { authorization: `Bearer ${TOKEN}` }]) {
        const res = await hub.app.inject({ url, headers });
        expect([200, 404], url).toContain(res.statusCode);
        expect(res.headers['content-security-policy'], url).toMatch(
          /^default-src 'none'; script-src 'self'; style-src 'self';/,
        );
        expect(res.headers['content-security-policy']).not.toMatch(/unsafe/);
        expect(res.headers['cache-control']).toBe('private, no-store');
        expect(res.headers['x-frame-options']).toBe('DENY');
        // every <script> has a src on this hub; no inline handlers
        expect(res.body).not.toMatch(/<script(?![^>]*\bsrc="\/admin\/assets\/)[^>]*>/);
        expect(res.body).not.toMatch(/<[^>]*\son[a-z]+=/i);
      }
    }
  });

  it('escapes facts and names everywhere they are shown', async () => {
    const { cookie } = await login(hub);
    for (const url of [
      '/admin/',
      '/admin/entity/Brian',
      '/admin/entities',
      `/admin/entity/${encodeURIComponent('<b>Evil</b>"name')}`,
      '/graph',
    ]) {
      const body = (await hub.app.inject({ url, headers: { cookie } })).body;
      expect(body, url).not.toContain('<script>alert');
      expect(body, url).not.toContain('<img src=x');
      expect(body, url).not.toContain('<b>Evil</b>');
    }
    const brian = (await hub.app.inject({ url: '/admin/entity/Brian', headers: { cookie } })).body;
    expect(brian).toContain(
      'Brian &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &quot;quoted&quot; &amp; &#39;single&#39;',
    );
    const api = (await hub.app.inject({ url: '/api/graph', headers: { cookie } })).json();
    expect(api.nodes.map((n: { label: string }) => n.label)).toContain('<b>Evil</b>"name');
  });

  it('refuses a state change without the CSRF token or from another origin', async () => {
    const { cookie, csrf } = await login(hub);
    const none = await form(hub, `/admin/memory/${brianFact}/confirm`, { next: '/admin/' }, { cookie });
    expect(none.statusCode).toBe(403);
    const wrong = await form(hub, `/admin/memory/${brianFact}/confirm`, { _csrf: `${csrf}x` }, { cookie });
    expect(wrong.statusCode).toBe(403);
    const foreign = await form(
      hub,
      `/admin/memory/${brianFact}/confirm`,
      { _csrf: csrf },
      { cookie, origin: 'https://evil.example' },
    );
    expect(foreign.statusCode).toBe(403);
    const before = hub.services.memory.get(brianFact)!.last_confirmed;
    expect(before).toBeLessThan(hub.clock.now() - 300 * 86_400);
    const ok = await form(
      hub,
      `/admin/memory/${brianFact}/confirm`,
      { _csrf: csrf, next: '/admin/entity/Brian' },
      { cookie, origin: 'http://localhost:80' },
    );
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe('/admin/entity/Brian');
    expect(hub.services.memory.get(brianFact)!.last_confirmed).toBe(hub.clock.now());
    // a script holding the token needs no CSRF token (a browser cannot add the header cross-site)
    const bearer = await form(hub, `/admin/memory/${brianFact}/confirm`, {}, { authorization: `Bearer ${TOKEN}` });
    expect(bearer.statusCode).toBe(303);
  });

  it('keeps the dashboard under 300 KB on first load, assets gzipped', async () => {
    const { cookie } = await login(hub);
    const page = await hub.app.inject({ url: '/admin/', headers: { cookie, 'accept-encoding': 'gzip, deflate, br' } });
    let total = page.rawPayload.length;
    const refs = [...page.body.matchAll(/(?:src|href)="(\/admin\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThanOrEqual(3);
    for (const url of refs) {
      const res = await hub.app.inject({ url, headers: { cookie, 'accept-encoding': 'gzip, deflate, br' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      total += res.rawPayload.length;
    }
    expect(total).toBeLessThan(300 * 1024);
    expect(csrfIn(page.body)).not.toBe('');
  });
});

describe('hostile input at every admin door', () => {
  it('forms, paths and queries with hostile strings answer 2xx/3xx/4xx, never 5xx', async () => {
    const { cookie, csrf } = await login(hub);
    const strings = [...SQL, ...PROTO, ...CONTROL, ...UNICODE, ...PATH_SEGMENTS]
      .map(String)
      .filter((v) => {
        try {
          return encodeURIComponent(v) !== null; // lone surrogates cannot be sent in a URL or form at all
        } catch {
          return false;
        }
      })
      .slice(0, 120);
    const statuses = new Set<number>();
    for (const v of strings) {
      const enc = encodeURIComponent(v);
      const gets = [
        `/admin/entities?q=${enc}&type=${enc}`,
        `/admin/entity/${enc}`,
        `/admin/entity/Brian?g=${enc}`,
        `/admin/readings?entity=${enc}&metric=${enc}`,
        `/graph?type=${enc}`,
        `/api/graph?type=${enc}`,
        `/admin/entity/bedroom/series.json?metric=${enc}`,
        `/admin/assets/${enc}`,
      ];
      for (const url of gets) statuses.add((await hub.app.inject({ url, headers: { cookie } })).statusCode);
      for (const [url, fields] of [
        [`/admin/memory/${enc}/confirm`, {}],
        [`/admin/memory/${brianFact}/edit`, { fact: v, category: v }],
        [`/admin/entity/${enc}/remember`, { fact: v, fact_key: v }],
        ['/admin/login', { token: v, next: v }],
      ] as const) {
        statuses.add((await form(hub, url, { _csrf: csrf, next: v, ...fields }, { cookie })).statusCode);
      }
    }
    expect([...statuses].filter((s) => s >= 500)).toEqual([]);
    expect(hub.services.memory.get(brianFact)).toBeDefined();
  }, 60_000);
});
