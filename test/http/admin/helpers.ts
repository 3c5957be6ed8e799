/** Shared by the admin UI tests: a logged-in cookie and the page's CSRF token, over inject. */
import type { TestHub } from '../../helpers/hub.js';

export const TOKEN = 'admin-test-token-0123456789';

export async function login(hub: TestHub): Promise<{ cookie: string; csrf: string }> {
  const res = await hub.app.inject({
    method: 'POST',
    url: '/admin/login',
    payload: `token=${TOKEN}&next=%2Fadmin%2F`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const set = String(res.headers['set-cookie']);
  const cookie = set.split(';')[0];
  const page = await hub.app.inject({ url: '/admin/', headers: { cookie } });
  return { cookie, csrf: csrfIn(page.body) };
}

export const csrfIn = (body: string) => /name="_csrf" value="([^"]+)"/.exec(body)?.[1] ?? '';

export function form(hub: TestHub, url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return hub.app.inject({
    method: 'POST',
    url,
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'localhost:80', ...headers },
  });
}

/** A memory about `entity` whose last confirmation was `days` ago (the clock is moved back, then forward). */
export async function rememberAt(
  hub: TestHub,
  entity: string,
  fact: string,
  daysAgo: number,
  extra: Record<string, unknown> = {},
) {
  hub.clock.advance(-daysAgo * 86_400);
  const r = await hub.services.memory.remember(
    {
      entity_name: entity,
      fact,
      category: 'preference',
      confidence: 1,
      source: 'manual',
      entity_type: 'person',
      ...extra,
    } as never,
    'http',
  );
  hub.clock.advance(daysAgo * 86_400);
  return r.id;
}
