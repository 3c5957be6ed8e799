import { describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import mqtt from 'mqtt';
import Database from 'better-sqlite3';
import { tempDir } from '../helpers/hub.js';
import { startServe } from '../helpers/process.js';

/**
 * Graceful stop under load, as systemd does it: SIGTERM to a real `hearth serve` while MQTT QoS 1
 * publishers and HTTP clients are sending. Every message is acknowledged (and then on disk) or
 * refused (no PUBACK, no 2xx: the sender still has it), the WAL is checkpointed into the main file,
 * and the process exits 0 (how soon is a row of `npm run bench`, scripts/bench/stopwatch-io.ts). The systemd readiness and watchdog notifications are seen
 * through a `systemd-notify` stand-in on PATH that records its arguments.
 */
describe('graceful stop (SIGTERM)', () => {
  it('flushes, answers every in-flight message, checkpoints the WAL and exits 0', async () => {
    const dir = tempDir();
    const dataDir = join(dir, 'data');
    const notes = join(dir, 'notify.log');
    writeFileSync(join(dir, 'systemd-notify'), `#!/bin/sh\necho "$*" >> '${notes}'\n`);
    chmodSync(join(dir, 'systemd-notify'), 0o755);
    const hub = await startServe(dataDir, {
      PATH: `${dir}:${process.env.PATH}`,
      NOTIFY_SOCKET: join(dir, 'notify.sock'),
      WATCHDOG_USEC: '2000000',
      // A wide batching window, so that SIGTERM lands while batches wait to commit.
      HEARTH_INGEST_FLUSH_MS: '100',
    });
    const until = Date.now() + 15_000; // returns as soon as seen; sized for a loaded machine
    while (!(existsSync(notes) && /WATCHDOG=1/.test(readFileSync(notes, 'utf8'))) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
    expect(readFileSync(notes, 'utf8').split('\n')[0]).toBe(
      `--ready --status=serving http ${hub.http}, mqtt ${hub.mqtt}`,
    );
    expect(readFileSync(notes, 'utf8')).toContain('WATCHDOG=1');

    const clients = await Promise.all([0, 1].map(() => mqtt.connectAsync(hub.mqtt, { reconnectPeriod: 0 })));
    const acked = { mqtt: [] as number[], http: [] as number[] };
    const pending = new Set<Promise<unknown>>();
    let refused = 0;
    let stop = false;
    let seq = 0;
    const track = <T>(p: Promise<T>) => {
      pending.add(p);
      void p.finally(() => pending.delete(p)).catch(() => undefined);
      return p;
    };
    const loops = [
      ...clients.map(async (c) => {
        while (!stop && c.connected) {
          await Promise.all(
            Array.from({ length: 20 }, () => seq++).map((n) =>
              track(c.publishAsync('hearth/record/stop_test/mqtt_seq', String(n), { qos: 1 })).then(
                () => void acked.mqtt.push(n),
                () => void refused++,
              ),
            ),
          );
        }
      }),
      ...[0, 1, 2, 3].map(async () => {
        let misses = 0;
        while (!stop && misses < 3) {
          const n = seq++;
          const res = await track(
            fetch(`${hub.http}/record`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ entity_name: 'stop_test', metric: 'http_seq', value: n }),
            }),
          ).catch(() => null);
          if (res?.ok) acked.http.push(n);
          else refused++, misses++;
        }
      }),
    ];
    await new Promise((r) => setTimeout(r, 1500));
    const before = acked.mqtt.length + acked.http.length;
    const exited = new Promise<number | null>((resolve) => hub.child.once('exit', (code) => resolve(code)));
    hub.child.kill('SIGTERM');
    const code = await exited; // how long it took is a row of `npm run bench` (scripts/bench/stopwatch-io.ts)
    stop = true;
    // The hub is gone: whatever a client still waits for, it will never be acknowledged now.
    for (const c of clients) c.end(true);
    await Promise.race([Promise.all(loops), new Promise((r) => setTimeout(r, 3000))]);

    expect(code, hub.output()).toBe(0);
    expect(before).toBeGreaterThan(100);
    expect(readFileSync(notes, 'utf8')).toContain('--status=stopping STOPPING=1');

    // Checkpointed and closed: no WAL left beside the database.
    const wal = join(dataDir, 'hearth.db-wal');
    expect(!existsSync(wal) || statSync(wal).size === 0).toBe(true);
    const db = new Database(join(dataDir, 'hearth.db'), { readonly: true });
    const stored = (metric: string) =>
      new Set(
        (
          db
            .prepare(`SELECT r.value_num AS v FROM readings r JOIN series s ON s.id = r.series_id WHERE s.metric = ?`)
            .all(metric) as { v: number }[]
        ).map((r) => r.v),
      );
    const mqttStored = stored('mqtt_seq');
    const httpStored = stored('http_seq');
    db.close();
    expect(acked.mqtt.filter((n) => !mqttStored.has(n))).toEqual([]);
    expect(acked.http.filter((n) => !httpStored.has(n))).toEqual([]);
    expect(acked.mqtt.length + acked.http.length).toBeGreaterThan(before);
  }, 40_000);
});
