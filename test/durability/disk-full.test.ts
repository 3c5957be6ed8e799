import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { buildTestHub, post, tempDir, type TestHub } from '../helpers/hub.js';

/**
 * A Pi's SD card fills up. The data directory lives on a 4 MiB tmpfs (CI runs as root) that a
 * filler file nearly exhausts: writes must be refused with 503, nothing acknowledged lost, the
 * database intact, and writing must resume once space returns. The disk guard is off here
 * (disk_min_free_mb 0: it would refuse every write on a 4 MiB disk with 507 before SQLite fills it,
 * test/http/disk-guard.test.ts): this is what happens when the disk fills under SQLite anyway.
 */
const mnt = tempDir('hearth-diskfull-');
let mounted = false;
afterAll(() => {
  if (mounted) execFileSync('umount', ['-l', mnt]);
  rmSync(mnt, { recursive: true, force: true });
});

describe('disk full', () => {
  it('refuses writes with 503, loses nothing acknowledged, stays intact and recovers', async () => {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mnt]);
    mounted = true;
    const dir = join(mnt, 'hub');
    mkdirSync(dir);
    const hub: TestHub = await buildTestHub({ dir, config: { disk_min_free_mb: 0 } });
    const filler = join(mnt, 'filler');
    try {
      const acked: number[] = [];
      let seq = 0;
      const bulk = async () => {
        const readings = Array.from({ length: 200 }, () => ({
          entity_name: 'disk',
          metric: 'seq',
          value: seq++,
          ts: hub.clock.now() - 3600 + seq / 1000,
        }));
        const r = await post(hub, '/record/bulk', { readings });
        if (r.status === 200) acked.push(...readings.map((x) => x.value));
        return r;
      };
      await bulk();
      // Leave ~150 KiB free.
      const free = Number(execFileSync('df', ['--output=avail', '-B1', mnt]).toString().split('\n')[1]);
      writeFileSync(filler, Buffer.alloc(Math.max(0, free - 150 * 1024)));
      let refused: { status: number; body: Record<string, any> } | undefined;
      for (let i = 0; i < 200 && !refused; i++) {
        const r = await bulk();
        if (r.status !== 200) refused = r;
      }
      expect(refused?.status).toBe(503);
      expect(refused?.body).toMatchObject({ ok: false, error: 'unavailable' });
      expect(refused?.body.message).toMatch(/storage is full|I\/O error/);
      const remember = await post(hub, '/remember', {
        entity_name: 'disk',
        fact: 'the disk filled up during a test '.repeat(50),
      });
      expect([200, 503]).toContain(remember.status);

      rmSync(filler);
      const after = await bulk();
      expect(after.status).toBe(200);
      expect(hub.db.pragma('integrity_check', { simple: true })).toBe('ok');
      await hub.stop();
      const db = new Database(join(dir, 'data', 'hearth.db'));
      const stored = new Set(
        (db.prepare('SELECT value_num AS v FROM readings').all() as { v: number }[]).map((r) => r.v),
      );
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
      expect(acked.filter((v) => !stored.has(v))).toEqual([]);
    } finally {
      rmSync(filler, { force: true });
      await hub.stop().catch(() => undefined);
    }
  }, 60_000);
});
