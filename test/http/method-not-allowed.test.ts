/**
 * Issue #35 item 15: `GET /recall` answered "no route". A path served under another method answers
 * 405 with `Allow` and a message naming the method to use — for every route, from one hook
 * (src/http/method-not-allowed.ts); a path nothing serves is still 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, type TestHub } from '../helpers/hub.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await buildTestHub();
});
afterAll(async () => {
  await hub?.close();
});

describe('a method the path does not answer', () => {
  it('GET on every POST-only route: 405, Allow: POST, "use POST with a JSON body"', async () => {
    const docs = (await hub.app.inject({ url: '/docs' })).json() as { paths: Record<string, Record<string, unknown>> };
    // A GET route with a parameter may match the same path (`GET /wm/{id}` and `POST /wm/open`): that one is served.
    const gets = Object.entries(docs.paths)
      .filter(([, ops]) => 'get' in ops)
      .map(([path]) => new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`));
    const postOnly = Object.entries(docs.paths)
      .filter(([, ops]) => Object.keys(ops).join() === 'post')
      .map(([path]) => path.replace(/\{[^}]+\}/g, 'x'))
      .filter((path) => !gets.some((g) => g.test(path)));
    expect(postOnly).toContain('/recall');
    expect(postOnly.length).toBeGreaterThan(20);
    for (const path of postOnly) {
      const res = await hub.app.inject({ method: 'GET', url: `${path}?q=1` });
      expect(res.statusCode, path).toBe(405);
      expect(res.headers.allow, path).toBe('POST');
      expect(res.json(), path).toEqual({
        ok: false,
        error: 'method_not_allowed',
        message: `method: ${path} does not answer GET; use POST with a JSON body`,
      });
    }
  });

  it('a path with several methods lists them all; an unknown path is still 404', async () => {
    const del = await hub.app.inject({ method: 'DELETE', url: '/schedule' });
    expect(del.statusCode).toBe(405);
    expect(del.headers.allow).toBe('GET, HEAD, POST');
    expect(del.json().message).toBe('method: /schedule does not answer DELETE; use GET or POST with a JSON body');
    const post = await hub.app.inject({ method: 'POST', url: '/health', payload: {} });
    expect(post.statusCode).toBe(405);
    expect(post.json().message).toBe('method: /health does not answer POST; use GET');
    const none = await hub.app.inject({ method: 'GET', url: '/no/such/route' });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ ok: false, error: 'not_found', message: 'no route GET /no/such/route' });
  });

  it('with a token set, a caller without it still gets 401 first (the 405 tells a stranger nothing more)', async () => {
    const locked = await buildTestHub({ config: { http: { token: 'a-long-random-token' } } });
    try {
      expect((await locked.app.inject({ method: 'GET', url: '/recall' })).statusCode).toBe(401);
      const res = await locked.app.inject({
        method: 'GET',
        url: '/recall',
        headers: { authorization: 'Bearer a-long-random-token' },
      });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('POST');
    } finally {
      await locked.close();
    }
  });
});
