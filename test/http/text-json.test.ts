import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, type TestHub } from '../helpers/hub.js';

// Node-RED's template and function nodes, and shell scripts, send JSON as text or unlabelled.
let hub: TestHub;
beforeAll(async () => {
  hub = await buildTestHub();
});
afterAll(async () => hub?.close());

const send = (headers: Record<string, string>, payload: string) =>
  hub.app
    .inject({ method: 'POST', url: '/remember', headers, payload })
    .then((r) => ({ status: r.statusCode, body: r.json() }));
const body = JSON.stringify({ entity_name: 'Brian', fact: 'Brian likes jazz', category: 'preference' });

describe('JSON bodies without a JSON content type', () => {
  it('accepts JSON sent as text/plain, and with no content type at all', async () => {
    const asText = await send({ 'content-type': 'text/plain; charset=utf-8' }, body);
    expect(asText.status).toBe(200);
    expect(asText.body.action).toBe('added');
    const untyped = await send(
      {},
      JSON.stringify({ entity_name: 'Brian', fact: 'Brian drinks tea', category: 'preference' }),
    );
    expect(untyped.status).toBe(200);
  });

  it('answers 415 naming the content type to send when the body is not JSON', async () => {
    const res = await send({ 'content-type': 'text/plain' }, 'entity_name=Brian');
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ ok: false, error: 'invalid' });
    expect(res.body.message).toMatch(/^body: sent as text\/plain and not JSON; send .*content-type: application\/json/);
  });

  it('still validates the parsed body with the shared schema (400 naming the field)', async () => {
    const res = await send({ 'content-type': 'text/plain' }, '{"entity_name":"Brian"}');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/fact/);
  });

  it('leaves InfluxDB line protocol (its own parser) alone', async () => {
    const res = await hub.app.inject({
      method: 'POST',
      url: '/write',
      headers: { 'content-type': 'text/plain' },
      payload: 'temp,entity_id=kitchen value=21',
    });
    expect(res.statusCode, res.body).toBe(204);
  });
});
