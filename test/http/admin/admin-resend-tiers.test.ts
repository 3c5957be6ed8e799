/**
 * A form of the tier and entity pages sent from a stale page (its CSRF token from before a restart or
 * a new login) changes nothing and comes back as "Send your change again" with what was typed; sent
 * again, it does what it said. Another site's form is never offered again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, get, type TestHub } from '../../helpers/hub.js';
import { form, login, TOKEN } from './helpers.js';
import { HOSTILE, type Seeded, seedTiers } from './tiers-seed.js';

const html = { accept: 'text/html,application/xhtml+xml' };
let hub: TestHub;
let cookie: string;
let seeded: Seeded;
beforeAll(async () => {
  hub = await buildTestHub({ config: { http: { token: TOKEN } } });
  seeded = await seedTiers(hub);
  await hub.services.memory.remember(
    {
      entity_name: 'Rex',
      fact: 'Rex sleeps in the hall',
      category: 'general',
      confidence: 1,
      source: 'manual',
    } as never,
    'http',
  );
  cookie = (await login(hub)).cookie;
});
afterAll(async () => hub?.close());

/** Posts with a stale token, expects the resend page, then sends its form again with its fresh token. */
async function staleThenAgain(url: string, fields: Record<string, string>, shown: string[]) {
  const stale = await form(hub, url, { ...fields, _csrf: 'from-before' }, { ...html, cookie });
  expect(stale.statusCode).toBe(403);
  expect(stale.body).toContain('Send your change again');
  for (const s of shown) expect(stale.body).toContain(s);
  expect(stale.body).toContain(`action="${url}"`);
  const resend = stale.body.slice(stale.body.indexOf(`action="${url}"`));
  const again = Object.fromEntries(
    [
      ...resend
        .slice(0, resend.indexOf('</form>'))
        .matchAll(/<input (?:type="hidden" )?name="([a-z_]+)"[^>]*value="([^"]*)"/g),
    ].map((m) => [
      m[1],
      m[2]
        .replaceAll('&quot;', '"')
        .replaceAll('&lt;', '<')
        .replaceAll('&gt;', '>')
        .replaceAll('&#39;', "'")
        .replaceAll('&amp;', '&'),
    ]),
  );
  expect(again._csrf).toMatch(/.{20}/);
  const sent = await form(hub, url, again, { cookie });
  expect(sent.statusCode).toBe(303);
}

describe('stale forms of the new pages are offered again', () => {
  it('rename: the typed name is kept, and sent again renames', async () => {
    await staleThenAgain('/admin/entity/Rex/rename', { new_name: 'Rexy', next: '/admin/entity/Rex' }, [
      'value="Rexy"',
      'Rename</button>',
    ]);
    expect(hub.services.entities.find('Rexy')?.name).toBe('Rexy');
  });

  it('change type', async () => {
    await staleThenAgain('/admin/entity/Rexy/type', { type: 'pet' }, ['value="pet"']);
    expect(hub.services.entities.find('Rexy')?.type).toBe('pet');
  });

  it('dismiss a reminder', async () => {
    const url = `/admin/intentions/${seeded.intentionId}/dismiss`;
    await staleThenAgain(url, { next: '/admin/intentions' }, ['Dismiss the reminder</button>']);
    const list = await get(hub, '/intentions?active_only=false', { authorization: `Bearer ${TOKEN}` });
    const it = list.body.intentions.find((i: { id: number }) => i.id === seeded.intentionId);
    expect(it?.status).toBe('dismissed');
  });

  it('name an unknown voice: the name typed is kept, hostile text stays text', async () => {
    const voice = seeded.voices[1];
    const name = `Gran ${HOSTILE}`.slice(0, 100);
    await staleThenAgain('/admin/voices/enroll', { entity_name: voice, new_name: name }, ['Name this voice</button>']);
    expect(hub.services.entities.find(name)?.name).toBe(name);
  });

  it("another site's form is refused and not offered again", async () => {
    const res = await form(
      hub,
      '/admin/entity/Rexy/rename',
      { _csrf: 'x', new_name: 'pwned by evil' },
      { ...html, cookie, origin: 'https://evil.example' },
    );
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain('pwned by evil');
    expect(hub.services.entities.find('pwned by evil')).toBeUndefined();
  });
});
