import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:https';
import { buildTestHub, type TestHub } from '../helpers/hub.js';
import { selfSignedCert } from '../helpers/tls.js';

const TOKEN = 'a-long-random-token';
let hub: TestHub;
beforeAll(async () => {
  // The sweep below sends ~50 unauthenticated requests from one address; the failed-login limit
  // (http.auth_failures_per_minute) has its own test in test/http/hardening.test.ts.
  hub = await buildTestHub({
    config: { http: { token: TOKEN, rate_limit_per_minute: 30, auth_failures_per_minute: 1000 } },
  });
});
afterAll(async () => {
  await hub?.close();
});

describe('HTTP authentication covers every route but /health', () => {
  it('answers 401 without the token on every documented and hidden route', async () => {
    const docs = (await hub.app.inject({ url: '/docs', headers: { authorization: `Bearer ${TOKEN}` } })).json();
    const routes: [string, string][] = [];
    for (const [path, ops] of Object.entries(docs.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(ops)) routes.push([method.toUpperCase(), path.replace(/\{[^}]+\}/g, 'x')]);
    }
    routes.push(
      ['GET', '/docs'],
      ['POST', '/mcp'],
      ['GET', '/mcp'],
      ['GET', '/admin'],
      ['GET', '/graph'],
      ['GET', '/no/such/route'],
    );
    expect(routes.length).toBeGreaterThan(25);
    for (const [method, url] of routes) {
      const res = await hub.app.inject({ method: method as 'GET', url, payload: method === 'GET' ? undefined : {} });
      if (url === '/health') {
        expect(res.statusCode).toBe(200);
        continue;
      }
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json(), url).toMatchObject({ ok: false, error: 'unauthorized' });
    }
  });

  it("the 401 shows the header's form and where the token is set, and says whether one was sent (issue #35 item 15)", async () => {
    const none = await hub.app.inject({ url: '/entities' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="hearth"');
    expect(none.json().message).toBe(
      'authorization: this hub needs its API token; send the header `Authorization: Bearer <token>` with the token set as http.token (HEARTH_API_TOKEN)',
    );
    const wrong = await hub.app.inject({ url: '/entities', headers: { authorization: 'Bearer a-long-random-tokeX' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toMatch(
      /^authorization: the token sent is not this hub's; send the header `Authorization: Bearer <token>`/,
    );
    expect(wrong.body).not.toContain(TOKEN);
  });

  it('answers 429 with the error shape past the per-client rate limit; the token holder is never counted', async () => {
    // With the token: held back by capacity, not refused (issue #26 item 19).
    for (let i = 0; i < 35; i++)
      expect(
        (await hub.app.inject({ url: '/entities', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode,
      ).toBe(200);
    // Without a token set every caller counts.
    const open = await buildTestHub({ config: { http: { rate_limit_per_minute: 30 } } });
    try {
      let last = 0;
      for (let i = 0; i < 35; i++) last = (await open.app.inject({ url: '/entities' })).statusCode;
      expect(last).toBe(429);
      const res = await open.app.inject({ url: '/entities' });
      expect(res.json()).toMatchObject({ ok: false, error: 'rate_limited' });
      expect(res.json().message).toMatch(/^rate limit: more than 30 requests per minute/);
      expect((await open.app.inject({ url: '/health' })).statusCode).toBe(200);
    } finally {
      await open.close();
    }
  });
});

describe('HTTPS', () => {
  it('serves over TLS from configured cert files', async () => {
    const { cert, key } = selfSignedCert();
    const tls = await buildTestHub({ config: { http: { tls_cert: cert, tls_key: key } } });
    try {
      const { http } = await tls.start();
      expect(http).toMatch(/^https:/);
      const body = await new Promise<string>((resolve, reject) => {
        request(`${http}/health`, { rejectUnauthorized: false }, (res) => {
          let data = '';
          res.on('data', (d) => (data += d));
          res.on('end', () => resolve(data));
        })
          .on('error', reject)
          .end();
      });
      expect(JSON.parse(body).ok).toBe(true);
    } finally {
      await tls.close();
    }
  });
});
