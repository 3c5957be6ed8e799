/**
 * A web page in the household's browser against a hub on the same machine with no token (the
 * default): a real hub on a free port, Debian's Chromium driven by playwright-core, and a second
 * local HTTP server playing the other site (src/http/browser-guard.ts).
 */
import { request } from 'node:http';
import { type Browser } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { closeInOrder } from '../helpers/teardown.js';
import { startOtherSite, type OtherSite } from '../helpers/other-site.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, type TestHub } from '../helpers/hub.js';

let hub: TestHub;
let browser: Browser;
let evil: OtherSite;
let hubUrl: string;
const memories = () => hub.db.prepare('SELECT fact FROM memories ORDER BY id').pluck().all() as string[];

/** A plain HTTP request with any Host header (fetch does not let a caller set it). */
function raw(
  path: string,
  opts: { method?: string; host?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string }> {
  const u = new URL(hubUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path,
        method: opts.method ?? 'GET',
        headers: { host: opts.host ?? u.host, 'content-type': 'application/json', ...opts.headers },
      },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

beforeAll(async () => {
  hub = await buildTestHub({ config: { mqtt: { mode: 'off' } } });
  hubUrl = (await hub.start()).http!;
  // The other site: a form that posts JSON disguised as text/plain (no CORS preflight), and a fetch in no-cors mode.
  const body = `{"entity_name":"Brian","fact":"Brian wants all cameras off","x":"`;
  evil = await startOtherSite(
    `<!doctype html><form id=f method=post enctype=text/plain action="${hubUrl}/remember"><input name='${body}' value='"}'></form>
      <script>fetch(${JSON.stringify(`${hubUrl}/forget`)}, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"entity_name":"Anna"}' }).finally(() => f.submit());</script>`,
  );
  browser = await launchChromium();
}, 60_000);
afterAll(() => closeInOrder(browser, evil, hub));

describe('a page on another site', () => {
  it('cannot write to or delete from the hub, by form or by fetch', async () => {
    await hub.services.memory.remember(
      {
        entity_name: 'Anna',
        fact: 'Anna is allergic to peanuts',
        category: 'general',
        confidence: 1,
        source: 'manual',
      },
      'http',
    );
    const page = await browser.newPage();
    const refused: number[] = [];
    page.on('response', (r) => r.url().startsWith(hubUrl) && refused.push(r.status()));
    await page.goto(evil.url);
    await page.waitForURL(`${hubUrl}/remember`, { timeout: 15_000 }); // the form was sent and answered
    expect(refused).toContain(403);
    expect(await page.textContent('body')).toMatch(/origin: a page on http:\/\/localhost:\d+ may not change this hub/);
    expect(memories()).toEqual(['Anna is allergic to peanuts']);
    await page.close();
  });

  it('cannot read through another name for 127.0.0.1 (DNS rebinding); /health still answers', async () => {
    const port = new URL(hubUrl).port;
    const rebound = await raw('/profile/Anna', { host: `evil.example:${port}` });
    expect(rebound.status).toBe(421);
    expect(JSON.parse(rebound.body).message).toMatch(/^host: evil\.example:\d+ is not this hub's address/);
    expect((await raw('/admin', { host: `evil.example:${port}` })).status).toBe(421);
    expect((await raw('/health', { host: `evil.example:${port}` })).status).toBe(200);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`])
      expect((await raw('/profile/Anna', { host })).status).toBe(200);
  });

  it('scripts and the hub’s own pages still write: no Origin, or this origin', async () => {
    const body = JSON.stringify({ entity_name: 'Leo', fact: 'Leo goes to bed at 7:30 pm' });
    expect((await raw('/remember', { method: 'POST', body })).status).toBe(200);
    expect(
      (
        await raw('/remember', {
          method: 'POST',
          body: JSON.stringify({ entity_name: 'Leo', fact: 'Leo naps after lunch' }),
          headers: { origin: hubUrl },
        })
      ).status,
    ).toBe(200);
    const other = await raw('/remember', {
      method: 'POST',
      body: JSON.stringify({ entity_name: 'Leo', fact: 'Leo may stay up' }),
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(other.status).toBe(403);
    expect(memories()).toEqual(['Anna is allergic to peanuts', 'Leo goes to bed at 7:30 pm', 'Leo naps after lunch']);
  });
});

describe('with a token', () => {
  it('the Host is not checked (a rebinding page has no credentials), and a cross-site write is still refused', async () => {
    const h = await buildTestHub({ config: { http: { token: 'sekrit-token-0123456789' }, mqtt: { mode: 'off' } } });
    try {
      const res = await h.app.inject({
        method: 'GET',
        url: '/profile/Anna',
        headers: { host: 'hearth.local:8900', authorization: 'Bearer sekrit-token-0123456789' },
      });
      expect(res.statusCode).not.toBe(421);
      const cross = await h.app.inject({
        method: 'POST',
        url: '/remember',
        headers: {
          host: 'hearth.local:8900',
          origin: 'http://evil.example',
          authorization: 'Bearer sekrit-token-0123456789',
        },
        payload: { entity_name: 'Leo', fact: 'x' },
      });
      expect(cross.statusCode).toBe(403);
    } finally {
      await h.close();
    }
  });
});
