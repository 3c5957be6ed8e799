/**
 * Issue #26 item 17: one big line-protocol request must not stall the hub. A body of few lines with
 * many fields each (the attack: a million readings in 6.9 MiB) used to be parsed and validated as one
 * slice. Now: at most 1,000 fields a line, at most 100,000 readings a request (413, nothing stored),
 * and the work sliced by readings with turns of the event loop between, so /health and an MQTT
 * publish (QoS 1, its PUBACK) get answers while the write is still running.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { MAX_FIELDS_PER_LINE, MAX_READINGS, parseLineProtocol } from '../../src/tiers/timeseries/line-protocol.js';
import { buildTestHub, type TestHub } from '../helpers/hub.js';

let hub: TestHub;
let base: string;
let mqttUrl: string;
beforeAll(async () => {
  hub = await buildTestHub({ config: { mqtt: { mode: 'embedded', port: 0 } } });
  const urls = await hub.start();
  mqttUrl = urls.mqtt!;
  base = `http://127.0.0.1:${(hub.app.server.address() as { port: number }).port}`;
});
afterAll(async () => hub?.close());

const count = () => hub.db.prepare('SELECT count(*) FROM readings').pluck().get() as number;
/** `lines` lines of `fields` fields each, timestamps within the last day. */
function body(lines: number, fields: number, tag: string): string {
  const now = Math.floor(hub.clock.now());
  return Array.from(
    { length: lines },
    (_, i) =>
      `${tag},host=${tag} ${Array.from({ length: fields }, (_, j) => `f${j}=${j}`).join(',')} ${now - 3600 + i}`,
  ).join('\n');
}
const write = (text: string) =>
  fetch(`${base}/write?precision=s`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: text });

describe('a large /write', () => {
  it('few lines of many fields: /health and an MQTT PUBACK answer while it is being written', async () => {
    const client = await mqtt.connectAsync(mqttUrl, { reconnectPeriod: 0 });
    try {
      // 30 lines × 1,000 fields = 30,000 readings in 30 lines (before: one slice, one stall).
      const text = body(30, MAX_FIELDS_PER_LINE, 'wide');
      const order: string[] = [];
      const big = write(text).then((r) => order.push(`write ${r.status}`));
      // Wait until the write is under way (parsing, or its first chunk committed) ...
      for (let i = 0; i < 2000 && count() === 0 && !order.length; i++) await new Promise((r) => setTimeout(r, 5));
      const started = order.length === 0;
      // ... then ask for /health and publish a reading: both must come back before the write ends.
      const health = fetch(`${base}/health`).then((r) => order.push(`health ${r.status}`));
      const puback = client
        .publishAsync('hearth/Probe/temperature', '21.5', { qos: 1 })
        .then(() => order.push('puback'));
      await Promise.all([big, health, puback]);
      expect(started).toBe(true);
      expect(order.indexOf('write 204')).toBe(2);
      expect(order.slice(0, 2).sort()).toEqual(['health 200', 'puback']);
      expect(count()).toBeGreaterThanOrEqual(30_000);
    } finally {
      await client.endAsync();
    }
  }, 120_000);

  it('more than 100,000 readings: 413 naming the limit, nothing stored', async () => {
    const before = count();
    const r = await write(body(101, MAX_FIELDS_PER_LINE, 'toomany'));
    expect(r.status).toBe(413);
    const json = await r.json();
    expect(json).toMatchObject({ ok: false, error: 'too_large' });
    expect(json.message).toContain(`more than ${MAX_READINGS} readings in one request`);
    expect(count()).toBe(before);
  }, 120_000);

  it('a line of more than 1,000 fields is an error of that line; the others are stored', () => {
    const wide = `m ${Array.from({ length: MAX_FIELDS_PER_LINE + 1 }, (_, j) => `f${j}=1`).join(',')}`;
    const out = parseLineProtocol(`${wide}\nm v=2`, 's', 1_764_633_600);
    expect(out.errors).toEqual([{ line: 1, message: `more than ${MAX_FIELDS_PER_LINE} fields in one line; split it` }]);
    expect(out.points).toHaveLength(1);
  });
});
