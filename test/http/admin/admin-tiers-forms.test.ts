/**
 * The tier pages over fastify inject (real hub, real SQLite): every page escapes a hostile value,
 * every form is refused without its CSRF token, a form mistake is a 4xx naming the field (never a 5xx),
 * and each action changes what the API reports.
 */
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, get, type TestHub } from '../../helpers/hub.js';
import { form, login, TOKEN } from './helpers.js';
import { HOSTILE_NAME, seedTiers, SHOWN, type Seeded } from './tiers-seed.js';

let hub: TestHub;
let seeded: Seeded;
let cookie: string;
let csrf: string;
const bearer = { authorization: `Bearer ${TOKEN}` };

beforeAll(async () => {
  hub = await buildTestHub({ config: { http: { token: TOKEN } } });
  hub.clock.set(Date.UTC(2026, 10, 20) / 1000);
  seeded = await seedTiers(hub, { patterns: true });
  ({ cookie, csrf } = await login(hub));
}, 60_000);
afterAll(async () => hub?.close());

const page = (url: string) => hub.app.inject({ url, headers: { cookie, accept: 'text/html' } });
const post = (url: string, fields: Record<string, string>) => form(hub, url, { _csrf: csrf, ...fields }, { cookie });

describe('tier pages', () => {
  const pages = [
    '/admin/search?q=note',
    '/admin/search?q=note&past=1',
    '/admin/intentions',
    '/admin/intentions?status=all',
    '/admin/sessions',
    '/admin/sessions?q=birthday',
    '/admin/tasks',
    '/admin/tasks?status=all',
    '/admin/voices',
    '/admin/patterns',
    '/admin/markdown',
  ];
  it.each(pages)('%s shows the hostile value as text', async (url) => {
    const res = await page(url);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/<img src=x|<script>alert/);
    if (!url.startsWith('/admin/markdown') && !url.startsWith('/admin/patterns')) expect(res.body).toContain(SHOWN);
  });

  it('a search is not an access: the facts it shows keep their access count', async () => {
    const brian = hub.services.entities.find('Brian')!.id;
    const before = hub.services.overview.memoriesOf(brian).map((m) => [m.id, m.access_count]);
    expect((await page('/admin/search?q=coffee')).body).toContain('Brian drinks his coffee black');
    await new Promise((r) => setTimeout(r, 2300)); // past the memory service's touch flush
    expect(hub.services.overview.memoriesOf(brian).map((m) => [m.id, m.access_count])).toEqual(before);
  });

  it('a conversation shows its turns in order, escaped', async () => {
    const res = await page(`/admin/sessions/${seeded.sessionId}`);
    expect(res.statusCode).toBe(200);
    expect(res.body.indexOf('Plan the birthday party')).toBeLessThan(res.body.indexOf('Sure, how many guests?'));
    expect(res.body).toContain(SHOWN);
  });

  it('patterns name the readings, the detector, the numbers and link the chart', async () => {
    const res = await page('/admin/patterns');
    const name = encodeURIComponent(HOSTILE_NAME).replaceAll("'", '&#39;');
    expect(res.body).toContain(`href="/admin/entity/${name}?g=hour#readings"`);
    expect(res.body).toMatch(/from its temperature readings/);
    expect(res.body).toMatch(/<meter[^>]*value="[0-9.]+"/);
    expect(res.body).toContain('&lt;img src=x onerror=alert(3)&gt;');
  });

  it('the stylesheet and the picker script are served behind the login', async () => {
    expect(
      (await hub.app.inject({ url: '/admin/tier-assets/tiers.css', headers: { cookie } })).headers['content-type'],
    ).toMatch(/text\/css/);
    expect((await hub.app.inject({ url: '/admin/tier-assets/markdown.js' })).statusCode).toBe(401);
  });
});

describe('behind the login', () => {
  const urls = [
    '/admin/search?q=note',
    '/admin/intentions',
    '/admin/sessions',
    '/admin/sessions/1',
    '/admin/tasks',
    '/admin/voices',
    '/admin/patterns',
    '/admin/markdown',
    '/admin/markdown/hearth-markdown.zip',
  ];
  it.each(urls)('%s: 401 and no data without a login; with one, the CSP and no inline script', async (url) => {
    const out = await hub.app.inject({ url, headers: { accept: 'text/html' } });
    expect(out.statusCode).toBe(401);
    expect(out.body).not.toMatch(/dentist|birthday|coffee|unknown_speaker|Brian/);
    const res = await page(url);
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it.each(['/admin/intentions/1/dismiss', '/admin/voices/enroll', '/admin/voices/merge', '/admin/markdown/import'])(
    '%s: 401 for a script without a login',
    async (url) => {
      const res = await hub.app.inject({
        method: 'POST',
        url,
        payload: {},
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBe(401);
    },
  );
});

describe('bad input is a 4xx naming the field', () => {
  it.each([
    ['/admin/intentions?status=bogus', 'status'],
    ['/admin/tasks?status=bogus', 'status'],
    ['/admin/sessions/abc', 'id'],
    ['/admin/search?past=2', 'past'],
    ['/admin/search?q=%00', 'q'],
    [`/admin/search?q=${'a'.repeat(1001)}`, 'q'],
    ['/admin/sessions?q=%00', 'q'],
  ])('%s', async (url, field) => {
    const res = await page(url);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(`role="alert">${field}: `);
  });

  it.each([
    '/admin/search?q=%22',
    '/admin/search?q=NEAR(a%20b)%20OR%20*',
    '/admin/sessions?q=%22%5E*',
    '/admin/search?q=%20%20',
  ])('%s: search syntax is just text', async (url) => {
    expect((await page(url)).statusCode).toBe(200);
  });

  it('an unknown conversation is a 404 page', async () => {
    expect((await page('/admin/sessions/99999')).statusCode).toBe(404);
  });

  it('enroll without a name answers the page with the problem by the field', async () => {
    const res = await post('/admin/voices/enroll', { entity_name: seeded.voices[0], new_name: '  ' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Type the name of the person whose voice this is');
    expect(res.body).toContain('aria-invalid="true"');
  });

  it('merge into an unknown name, or into itself, is a 4xx by the field', async () => {
    const nobody = await post('/admin/voices/merge', { source_name: seeded.voices[1], target_name: 'Nobody Here' });
    expect(nobody.statusCode).toBe(404);
    expect(nobody.body).toContain('No one called Nobody Here is known');
    const self = await post('/admin/voices/merge', { source_name: seeded.voices[1], target_name: seeded.voices[1] });
    expect(self.statusCode).toBe(400);
    expect(self.body).toContain('Choose another voice than this one');
  });

  it('a dismiss of a non-id or an unknown intention', async () => {
    const bad = await post('/admin/intentions/abc/dismiss', {});
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('role="alert">id: ');
    expect((await post('/admin/intentions/99999/dismiss', {})).statusCode).toBe(404);
  });

  it('an import with nothing, a pasted note without a name, a broken zip or broken files', async () => {
    const none = await post('/admin/markdown/import', {});
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('Choose notes to import, or paste one');
    const noName = await post('/admin/markdown/import', { content: '- a fact' });
    expect(noName.statusCode).toBe(400);
    expect(noName.body).toContain('Give the pasted note a name');
    expect(noName.body).toContain('- a fact'); // kept as typed
    const zip = await post('/admin/markdown/import', { zip: Buffer.from('not a zip').toString('base64') });
    expect(zip.statusCode).toBe(400);
    expect(zip.body).toContain('not a readable zip');
    const files = await post('/admin/markdown/import', { files: '{"nope":1}' });
    expect(files.statusCode).toBe(400);
    expect(files.body).toContain('could not be read');
  });
});

describe('CSRF', () => {
  it.each([
    ['/admin/intentions/1/dismiss', {}],
    ['/admin/voices/enroll', { entity_name: 'unknown_speaker_1', new_name: 'Zed' }],
    ['/admin/voices/merge', { source_name: 'unknown_speaker_1', target_name: 'unknown_speaker_2' }],
    ['/admin/markdown/import', { name: 'Zed', content: '- Zed was here' }],
  ])('%s is refused without the token and changes nothing', async (url, fields) => {
    const res = await form(hub, url, fields as Record<string, string>, { cookie });
    expect(res.statusCode).toBe(403);
    const wrong = await form(hub, url, { _csrf: 'forged', ...(fields as Record<string, string>) }, { cookie });
    expect(wrong.statusCode).toBe(403);
    expect((await get(hub, '/voices/unknown', bearer)).body.speakers).toHaveLength(3);
    expect(hub.services.entities.find('Zed')).toBeUndefined();
  });
});

describe('actions change what the API reports', () => {
  it('dismiss', async () => {
    const res = await post(`/admin/intentions/${seeded.intentionId}/dismiss`, { next: '/admin/intentions' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/admin/intentions');
    const api = await get(hub, '/intentions?active_only=false', bearer);
    expect(api.body.intentions.find((i: { id: number }) => i.id === seeded.intentionId).status).toBe('dismissed');
  });

  it('enroll, then merge', async () => {
    const [a, b, c] = seeded.voices;
    const enroll = await post('/admin/voices/enroll', { entity_name: a, new_name: 'Grandma Rose' });
    expect(enroll.statusCode).toBe(303);
    const again = await post('/admin/voices/enroll', { entity_name: b, new_name: 'Grandma Rose' });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('merge this voice into them instead');
    const merge = await post('/admin/voices/merge', { source_name: c, target_name: b });
    expect(merge.statusCode).toBe(303);
    const unknown = (await get(hub, '/voices/unknown', bearer)).body.speakers as {
      entity_name: string;
      detection_count: number;
    }[];
    expect(unknown.map((x) => x.entity_name)).toEqual([b]);
    expect(unknown[0].detection_count).toBe(2);
    expect(hub.services.entities.find('Grandma Rose')?.id).toBeDefined();
  });

  it('export, then import an edited note: a new fact is remembered and a stale line is a conflict', async () => {
    const zipRes = await hub.app.inject({ url: '/admin/markdown/hearth-markdown.zip', headers: { cookie } });
    expect(zipRes.statusCode).toBe(200);
    expect(zipRes.headers['content-type']).toBe('application/zip');
    const files = hub.services.markdown.filesOfZip(zipRes.rawPayload);
    const brian = files.find((f) => f.path === 'Brian.md')!;
    expect(brian.content).toContain('coffee black');
    // The hub corrects the coffee fact after the export; the note edits the old version.
    const id = hub.services.overview
      .memoriesOf(hub.services.entities.find('Brian')!.id)
      .find((m) => m.fact.includes('coffee'))!.id;
    await hub.services.memory.edit({ memory_id: id, fact: 'Brian drinks his coffee with milk now' }, 'http');
    const edited = brian.content
      .replace('Brian drinks his coffee black', 'Brian drinks his coffee with sugar')
      .replace('## Memories\n', '## Memories\n- Brian bakes bread on Sundays\n');
    expect(edited).toContain('Sundays');
    const zip = Buffer.from(zipSync({ 'Brian.md': strToU8(edited) })).toString('base64');
    const res = await post('/admin/markdown/import', { zip });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('1 conflict');
    expect(res.body).toContain('changed in the hub since');
    const after = hub.services.overview.memoriesOf(hub.services.entities.find('Brian')!.id).map((m) => m.fact);
    expect(after).toContain('Brian bakes bread on Sundays');
    expect(after).toContain('Brian drinks his coffee with milk now');
    expect(after).not.toContain('Brian drinks his coffee with sugar');
  });

  it("an upload larger than the forms' 64 KB is accepted (the import route has its own limit)", async () => {
    const filler = Array.from(
      { length: 4000 },
      (_, i) =>
        `${i.toString(36)} ${((i * 2654435761) % 4294967296).toString(16)} ${((i * 40503) % 65536).toString(16)}`,
    ).join(' ');
    const note = `# Zed\n## Memories\n- Zed flies kites on windy days\n\n## Notes\n${filler}\n`;
    const zip = Buffer.from(zipSync({ 'Zed.md': strToU8(note) }, { level: 0 })).toString('base64');
    expect(zip.length).toBeGreaterThan(64 * 1024);
    const res = await post('/admin/markdown/import', { zip });
    expect(res.statusCode).toBe(200);
    expect(JSON.stringify((await get(hub, '/profile/Zed', bearer)).body)).toContain('Zed flies kites on windy days');
  });

  it('a pasted note is imported', async () => {
    const res = await post('/admin/markdown/import', {
      name: 'Zoe.md',
      content: '---\ntype: person\n---\n# Zoe\n## Memories\n- Zoe plays the cello\n',
    });
    expect(res.statusCode).toBe(200);
    const r = await get(hub, '/profile/Zoe', bearer);
    expect(JSON.stringify(r.body)).toContain('Zoe plays the cello');
  });
});
