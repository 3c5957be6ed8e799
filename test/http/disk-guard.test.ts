/**
 * Issue #35 item 8, the disk guard: writes are refused with a clear 507 before the disk is full,
 * `/health` and `hearth doctor` say so, and nothing is acknowledged then lost — an MQTT QoS 1 reading
 * gets no PUBACK. The floor is set above the free space of the test's real disk (statfs, no fake),
 * so the guard is low from the start; its cache and recovery run on an injected clock and free-space
 * reader.
 */
import { afterEach, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { createDiskGuard, DISK_CHECK_MS } from '../../src/db/disk-guard.js';
import { diskCheck } from '../../src/tiers/ops/checks.js';
import { buildTestHub, type TestHub } from '../helpers/hub.js';

const TOKEN = 'disk-guard-token-0123456789abcdef';
const auth = { authorization: `Bearer ${TOKEN}` };
/** 1 EiB: more than any test machine has free. */
const HUGE_MB = 1024 * 1024 * 1024 * 1024;
let hub: TestHub | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

const inject = (method: 'GET' | 'POST', url: string, payload?: object, headers = auth) =>
  hub!.app.inject({ method, url, payload, headers });
const count = (table: string) => (hub!.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('the disk guard (issue #35 item 8)', () => {
  it('refuses writes with 507 naming the floor, keeps reads, and /health says so', async () => {
    hub = await buildTestHub({ config: { disk_min_free_mb: HUGE_MB, http: { token: TOKEN } } });
    const rec = await inject('POST', '/record', {
      entity_name: 'Kitchen',
      metric: 'temperature',
      value: 21,
      ts: 1_764_633_600,
    });
    expect(rec.statusCode).toBe(507);
    expect(rec.json()).toMatchObject({ ok: false, error: 'insufficient_storage' });
    expect(rec.json().message).toMatch(/free on the data dir's disk, under disk_min_free_mb .*nothing was stored/);
    const mem = await inject('POST', '/remember', {
      entity_name: 'Brian',
      fact: 'Brian likes tea',
      category: 'preference',
    });
    expect(mem.statusCode).toBe(507);
    const lines = await hub.app.inject({
      method: 'POST',
      url: '/write?precision=s',
      payload: 'temp,host=kitchen v=21 1764633600',
      headers: { ...auth, 'content-type': 'text/plain' },
    });
    expect(lines.statusCode).toBe(507);
    expect(count('readings')).toBe(0);
    expect(count('memories')).toBe(0);
    // Reads go on.
    expect((await inject('GET', '/entities')).statusCode).toBe(200);
    expect((await inject('POST', '/recall', { query: 'tea' })).statusCode).toBe(200);
    const health = (await inject('GET', '/health')).json();
    expect(health).toMatchObject({ status: 'degraded', disk: { writes: 'refused', min_free_mb: HUGE_MB } });
    expect(health.result).toMatch(/disk is nearly full.*507/);
    const open = (await inject('GET', '/health', undefined, {} as typeof auth)).json();
    expect(open).toMatchObject({ ok: true, status: 'degraded' });
  });

  it('an MQTT QoS 1 reading is not acknowledged while writes are refused, and not stored', async () => {
    hub = await buildTestHub({ config: { disk_min_free_mb: HUGE_MB, mqtt: { mode: 'embedded', port: 0 } } });
    const { mqtt: url } = await hub.start();
    const client = await mqtt.connectAsync(url!, { reconnectPeriod: 0, clientId: 'disk-guard-test' });
    const closed = new Promise((r) => client.once('close', r));
    let acked = false;
    client.publish('hearth/record/kitchen/temperature', '21.5', { qos: 1 }, (err) => {
      if (!err) acked = true;
    });
    await closed; // the broker drops the client instead of sending PUBACK
    expect(acked).toBe(false);
    expect(count('readings')).toBe(0);
    await client.endAsync(true);
  });

  it('reads free space at most once a second, and lets writes through again once space is back', () => {
    let free = 100 * 1024 * 1024;
    let t = 0;
    let reads = 0;
    const guard = createDiskGuard(
      '/data',
      256,
      () => (reads++, free),
      () => t,
    );
    expect(() => guard.assertRoom()).toThrow(/only 100 MiB free.*disk_min_free_mb \(256 MiB\)/);
    for (let i = 0; i < 1000; i++) expect(guard.state().low).toBe(true);
    expect(reads).toBe(1);
    free = 300 * 1024 * 1024;
    expect(guard.state().low).toBe(true); // still the cached answer
    t += DISK_CHECK_MS;
    expect(() => guard.assertRoom()).not.toThrow();
    expect(reads).toBe(2);
    expect(createDiskGuard('/data', 0, () => 0).state().low).toBe(false); // 0 = off
  });

  it('hearth doctor fails its disk check under the floor, naming it', () => {
    const MiB = 1024 * 1024;
    const low = diskCheck(100 * MiB, 10 * MiB, '/data', 256);
    expect(low.ok).toBe(false);
    expect(low.detail).toMatch(/under disk_min_free_mb = 256: the hub refuses writes \(HTTP 507/);
    expect(diskCheck(1000 * MiB, 10 * MiB, '/data', 256).ok).toBe(true);
  });
});
