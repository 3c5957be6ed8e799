/**
 * The dashboard's Ask box over inject (real hub, real SQLite, a fixed clock): a question posted with
 * the session's CSRF token answers the dashboard with the spoken result of the same service as POST
 * /ask and, small, what it rests on; with htmx only the answer; a mistake by the field (400); no
 * token, a stale token or another site's form is refused (403) and nothing is asked; every value is
 * escaped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, post, type TestHub } from '../../helpers/hub.js';
import { form, login, TOKEN } from './helpers.js';

const DAY = Date.UTC(2026, 11, 3) / 1000; // Thursday 3 December 2026 (the test hub's zone is UTC)
const HOSTILE = 'shed <img src=x onerror=alert(5)> door';
let hub: TestHub;
let cookie: string;
let csrf: string;
const bearer = { authorization: `Bearer ${TOKEN}` };
const ask = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  form(hub, '/admin/ask', { _csrf: csrf, ...fields }, { cookie, ...headers });

beforeAll(async () => {
  hub = await buildTestHub({ config: { http: { token: TOKEN } } });
  hub.clock.set(DAY + 12 * 3600);
  const readings = [
    { entity_name: 'garage_door', metric: 'contact', value: true, ts: DAY - 2 * 86_400 },
    { entity_name: 'garage_door', metric: 'contact', value: false, ts: DAY - 86_400 + 22.5 * 3600 },
    { entity_name: 'garage_door', metric: 'contact', value: true, ts: DAY - 86_400 + 23.9 * 3600 },
    { entity_name: HOSTILE, metric: 'contact', value: false, ts: DAY + 9 * 3600 },
  ];
  expect((await post(hub, '/record/bulk', { readings }, bearer)).status).toBe(200);
  ({ cookie, csrf } = await login(hub));
}, 60_000);
afterAll(async () => hub?.close());

const QUESTION = 'Was the garage door open last night?';

describe('the Ask box', () => {
  it('is on the dashboard: a form that posts with the CSRF token, in place with htmx', async () => {
    const page = await hub.app.inject({ url: '/admin/', headers: { cookie } });
    const box = /<section class="ask"[\s\S]*?<\/section>/.exec(page.body)?.[0] ?? '';
    expect(box).toMatch(/<form method="post" action="\/admin\/ask" hx-post="\/admin\/ask" hx-target="#ask-answer"/);
    expect(box).toMatch(/<input type="hidden" name="_csrf" value="[^"]+">/);
    expect(box).toMatch(/<input type="text" name="question" maxlength="500" required/);
  });

  it('answers with the spoken result of /ask and, small, what it rests on', async () => {
    const api = (await post(hub, '/ask', { question: QUESTION }, bearer)).body;
    expect(api.answer).toMatchObject({ kind: 'state', entity: 'garage_door', value: true });
    const res = await ask({ question: QUESTION });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1>Dashboard</h1>');
    expect(res.body).toContain(`value="${QUESTION}"`);
    const said = /<p class="said" data-kind="([a-z]+)" data-sure="(true|false)">([^<]*)/.exec(res.body);
    expect(said?.slice(1)).toEqual(['state', String(api.sure), api.result]);
    const evidence = /<div class="evidence">([\s\S]*?)<\/div>/.exec(res.body)?.[1] ?? '';
    expect(evidence).toMatch(
      /<li data-type="(readings|rollup)">\d+ (readings?|rollups?) of <a href="\/admin\/entity\/garage_door">garage_door<\/a> <code>contact<\/code>/,
    );
    expect(evidence.match(/<li /g)).toHaveLength(api.evidence.length);
  });

  it("with htmx: only the answer, to replace the box's answer area", async () => {
    const res = await ask({ question: QUESTION }, { 'hx-request': 'true' });
    expect(res.statusCode).toBe(200);
    expect(res.body.trimStart()).toMatch(/^<p class="said"/);
    expect(res.body).not.toContain('<h1>');
  });

  it('a mistake is said by the field (400): empty, too long; with htmx one plain sentence', async () => {
    const empty = await ask({ question: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toMatch(
      /<p class="error field-error" role="alert" id="error-question">Type a question first<\/p>/,
    );
    expect(empty.body).toContain('aria-invalid="true"');
    const long = await ask({ question: 'why '.repeat(200) });
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain('The question can be at most 500 characters');
    const htmx = await ask({ question: '' }, { 'hx-request': 'true' });
    expect(htmx.statusCode).toBe(400);
    expect(htmx.headers['content-type']).toMatch(/^text\/plain/);
    expect(htmx.body).toBe('Type a question first');
  });

  it('refused without its CSRF token, with a stale one, or from another site (403): nothing is asked', async () => {
    let asked = 0;
    const real = hub.services.ask.ask;
    hub.services.ask.ask = (input) => (asked++, real(input));
    try {
      const none = await form(hub, '/admin/ask', { question: QUESTION }, { cookie });
      expect(none.statusCode).toBe(403);
      const stale = await form(hub, '/admin/ask', { _csrf: 'x'.repeat(40), question: QUESTION }, { cookie });
      expect(stale.statusCode).toBe(403);
      const foreign = await ask(
        { question: QUESTION },
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      );
      expect(foreign.statusCode).toBe(403);
      expect(foreign.body).not.toContain(QUESTION);
      const anonymous = await form(hub, '/admin/ask', { question: QUESTION });
      expect([401, 403]).toContain(anonymous.statusCode);
      expect(anonymous.body).not.toContain('garage');
      expect(asked).toBe(0);
      expect((await ask({ question: QUESTION })).statusCode).toBe(200);
      expect(asked).toBe(1);
    } finally {
      hub.services.ask.ask = real;
    }
  });

  it('escapes the question, the answer and the evidence', async () => {
    const res = await ask({ question: 'was the shed <img src=x onerror=alert(5)> door open today?' });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/<img src=x/);
    expect(res.body).toContain('value="was the shed &lt;img src=x onerror=alert(5)&gt; door open today?"');
    const answer = /<div id="ask-answer"[^>]*>([\s\S]*?)<\/section>/.exec(res.body)?.[1] ?? '';
    expect(answer).toMatch(/<p class="said"/);
    expect(answer).toContain('the shed &lt;img src=x onerror=alert(5)&gt; door');
    expect(answer).toMatch(
      /<li data-type="readings">1 reading of <a href="\/admin\/entity\/shed%20%3Cimg%20src%3Dx%20onerror%3Dalert\(5\)%3E%20door">shed &lt;img/,
    );
  });
});
