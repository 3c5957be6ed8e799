/**
 * Issue #26 item 19: one busy client that holds the token — a Node-RED flow posting /record per
 * reading — is never refused for being busy. The per-client rate limit counts only requests that
 * do not carry the valid token (and, with no token set, sits at a default no home reaches).
 * Real HTTP on loopback: 200 readings a second for 3 s from one client, every one acknowledged and
 * stored, under a limit lowered far below that rate.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { buildTestHub, type TestHub } from '../helpers/hub.js';

const TOKEN = 'busy-client-token-0123456789';
let hub: TestHub | undefined;
afterEach(async () => hub?.close());

/** Sends `perSecond` readings a second for `seconds` from one client; resolves with every status. */
async function stream(
  base: string,
  perSecond: number,
  seconds: number,
  headers: Record<string, string>,
): Promise<number[]> {
  const sent: Promise<number>[] = [];
  const tick = 20; // ms
  const perTick = (perSecond * tick) / 1000;
  const start = performance.now();
  for (let t = 0; t < (seconds * 1000) / tick; t++) {
    for (let i = 0; i < perTick; i++) {
      const n = sent.length;
      sent.push(
        fetch(`${base}/record`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({
            entity_name: 'Kitchen',
            metric: 'temperature',
            value: 20 + (n % 50) / 10,
            ts: 1_764_633_600 + n,
          }),
        }).then(async (r) => (await r.arrayBuffer(), r.status)),
      );
    }
    const next = start + (t + 1) * tick;
    await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
  }
  return Promise.all(sent);
}

describe('a busy authenticated client', () => {
  it('200 readings/s for 3 s with the token, under a limit of 100 requests/min: all 200 OK, all stored', async () => {
    hub = await buildTestHub({ config: { http: { token: TOKEN, rate_limit_per_minute: 100 } } });
    await hub.start();
    const base = `http://127.0.0.1:${(hub.app.server.address() as { port: number }).port}`;
    const statuses = await stream(base, 200, 3, { authorization: `Bearer ${TOKEN}` });
    expect(statuses).toHaveLength(600);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const { n } = hub.db.prepare('SELECT count(*) AS n FROM readings').get() as { n: number };
    expect(n).toBe(600);
    // Callers without the token are still refused, every one.
    for (let i = 0; i < 5; i++) expect((await fetch(`${base}/entities`)).status).toBe(401);
  }, 60_000);

  it('without a token set, the default limit is far above what one home sends (200 readings/s for a whole minute)', () => {
    expect(parseConfig({}).http.rate_limit_per_minute).toBeGreaterThanOrEqual(200 * 60 * 4);
  });
});
