import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import mqtt from 'mqtt';
import Database from 'better-sqlite3';
import { tempDir } from '../helpers/hub.js';
import { startServe } from '../helpers/process.js';

/**
 * Every reading acknowledged to its sender (MQTT PUBACK, HTTP 2xx) must be on disk: kill -9 the hub
 * mid-stream, reopen the database, and look for each acknowledged reading.
 */
describe('durable acknowledgement', () => {
  it('keeps every acknowledged reading and memory after SIGKILL during mixed load', async () => {
    const dir = join(tempDir(), 'data');
    // A wide batching window: an acknowledgement sent before its commit would lose up to 200 ms of readings.
    const hub = await startServe(dir, { HEARTH_INGEST_FLUSH_MS: '200' });
    const client = await mqtt.connectAsync(hub.mqtt, { reconnectPeriod: 0 });
    const ackedMqtt: number[] = [];
    const ackedHttp: number[] = [];
    let stop = false;
    let seq = 0;

    const mqttLoop = (async () => {
      while (!stop) {
        const batch = Array.from({ length: 50 }, () => seq++);
        await Promise.all(
          batch.map((n) =>
            client.publishAsync('hearth/record/crash_test/mqtt_seq', String(n), { qos: 1 }).then(
              () => void ackedMqtt.push(n),
              () => undefined,
            ),
          ),
        ).catch(() => undefined);
      }
    })();
    let httpSeq = 0;
    const httpLoop = (async () => {
      while (!stop) {
        const readings = Array.from({ length: 100 }, () => ({
          entity_name: 'crash_test',
          metric: 'http_seq',
          value: httpSeq++,
        }));
        const res = await fetch(`${hub.http}/record/bulk`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ readings }),
        }).catch(() => null);
        if (res?.ok) ackedHttp.push(...readings.map((r) => r.value));
      }
    })();

    const ackedFacts: string[] = [];
    let factSeq = 0;
    const rememberLoop = (async () => {
      while (!stop) {
        const fact = `Crash test fact number ${factSeq++} about the hallway`;
        const res = await fetch(`${hub.http}/remember`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ entity_name: 'crash_test', fact }),
        }).catch(() => null);
        if (res?.ok) ackedFacts.push(fact);
      }
    })();

    while (ackedMqtt.length < 3000 || ackedHttp.length < 3000 || ackedFacts.length < 20)
      await new Promise((r) => setTimeout(r, 20));
    hub.child.kill('SIGKILL');
    await new Promise((r) => hub.child.once('exit', r));
    stop = true;
    client.end(true);
    await Promise.all([mqttLoop, httpLoop, rememberLoop]);

    const db = new Database(join(dir, 'hearth.db'));
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const stored = (metric: string) =>
      new Set(
        (
          db
            .prepare('SELECT r.value_num AS v FROM readings r JOIN series s ON s.id = r.series_id WHERE s.metric = ?')
            .all(metric) as { v: number }[]
        ).map((r) => r.v),
      );
    const mqttStored = stored('mqtt_seq');
    const httpStored = stored('http_seq');
    const facts = new Set((db.prepare('SELECT fact FROM memories').all() as { fact: string }[]).map((r) => r.fact));
    const ftsOk = db.prepare("INSERT INTO memory_fts(memory_fts) VALUES ('integrity-check')").run();
    db.close();
    expect(ftsOk.changes).toBeGreaterThanOrEqual(0);
    expect(ackedFacts.filter((f) => !facts.has(f))).toEqual([]);
    expect(ackedMqtt.filter((n) => !mqttStored.has(n))).toEqual([]);
    expect(ackedHttp.filter((n) => !httpStored.has(n))).toEqual([]);
    // Sanity: the kill really was mid-stream, and acknowledged readings were a large share.
    expect(mqttStored.size).toBeGreaterThanOrEqual(ackedMqtt.length);
  }, 60_000);
});
