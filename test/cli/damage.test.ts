/**
 * #10.17 a damaged database: a file that is not a database or is cut short is refused at start in
 * one line naming the file and the fix; damaged pages mid-file are found by the quick check at
 * start (real `hearth serve` child) and /health says `degraded`; a request meeting them gets a 503
 * that names the fix instead of "retry later".
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeSync, openSync, statSync, truncateSync, writeFileSync, writeSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/open.js';
import { buildTestHub, tempDir } from '../helpers/hub.js';
import { fromStorageError } from '../../src/lib/errors.js';
import { startServe, type ServeProcess } from '../helpers/process.js';
import { cliEnv, oneLine, runCli } from '../helpers/cli.js';

let serve: ServeProcess | undefined;
afterEach(() => {
  serve?.child.kill('SIGKILL');
  serve = undefined;
});

/** A database with `rows` audit rows (several b-tree levels); returns its path and the audit root page. */
function withAudit(dir: string, rows: number): { path: string; root: number; pageSize: number } {
  const db = openDatabase({ dataDir: dir });
  const put = db.prepare(
    "INSERT INTO audit (ts, actor, op, target, before, after) VALUES (?, 'test', 'x', ?, NULL, ?)",
  );
  db.transaction(() => {
    for (let i = 0; i < rows; i++) put.run(i, `t${i}`, 'y'.repeat(400));
  })();
  const { rootpage } = db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'audit'").get() as {
    rootpage: number;
  };
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { path: join(dir, 'hearth.db'), root: rootpage, pageSize };
}

describe('damaged database', () => {
  it('a file that is not a database, or one cut short: serve refuses in one line naming the file and the fix', async () => {
    const garbage = join(tempDir(), 'data');
    mkdirSync(garbage);
    writeFileSync(join(garbage, 'hearth.db'), 'this is not a database\n'.repeat(400));
    const cut = join(tempDir(), 'data');
    const { path } = withAudit(cut, 3000);
    truncateSync(path, Math.floor(statSync(path).size / 2));
    for (const [dir, why] of [
      [garbage, 'file is not a database'],
      [cut, 'truncated'],
    ]) {
      for (const cmd of ['serve', 'mcp']) {
        const r = await runCli([cmd], cliEnv(dir, { HEARTH_HTTP_PORT: '0' }));
        expect(r.code, r.stderr).toBe(1);
        expect(oneLine(r.stderr), r.stderr).toBe(true);
        expect(r.stderr).toContain(`database ${join(dir, 'hearth.db')} is damaged (${why}`);
        expect(r.stderr).toContain('`hearth doctor`');
        expect(r.stderr).toContain('`hearth restore <backup file>`');
      }
    }
  }, 60_000);

  it('damaged pages mid-file: serve starts, /health turns degraded, a write meeting them answers 503 naming the fix', async () => {
    const dir = join(tempDir(), 'data');
    const { path, root, pageSize } = withAudit(dir, 3000);
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(pageSize, 0xab), 0, pageSize, (root - 1) * pageSize);
    closeSync(fd);
    serve = await startServe(dir, { HEARTH_MQTT_MODE: 'off' });
    let health: any;
    for (let i = 0; i < 200; i++) {
      health = await fetch(`${serve.http}/health`).then((r) => r.json());
      if (health.status === 'degraded') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(health).toMatchObject({ status: 'degraded', integrity: { state: 'damaged', file: path } });
    expect(health.integrity.detail).toMatch(/quick_check|damaged page/);
    const r = await fetch(`${serve.http}/remember`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ entity_name: 'Brian', fact: 'Brian likes jazz' }),
    });
    expect(r.status).toBe(503);
    expect((await r.json()).message).toMatch(/database is damaged.*hearth doctor.*hearth restore/);
    expect(serve.child.exitCode).toBeNull();
    // /health says what is wrong and what to do (issue #26 item 16): not "up", and not "retry".
    const after = await fetch(`${serve.http}/health`).then((x) => x.json());
    expect(after.result).toContain(`The database ${path} is damaged`);
    expect(after.result).toContain('retrying will not help');
    expect(after.result).toContain('`hearth restore <backup file>`');
    expect(after.integrity.fix).toContain('`hearth restore <backup file>`');
    // The log says it once, however many requests meet the damage.
    await fetch(`${serve.http}/remember`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ entity_name: 'Brian', fact: 'Brian likes tea' }),
    });
    const lines = serve
      .output()
      .split('\n')
      .filter((l) => l.includes(`${path} is damaged (`));
    expect(lines, serve.output()).toHaveLength(1);
    expect(lines[0]).toContain('hearth restore <backup file>');
  }, 120_000);

  it('a request meeting SQLITE_CORRUPT puts integrity in doubt before any check has run', async () => {
    const hub = await buildTestHub();
    try {
      expect((await hub.app.inject({ url: '/health' })).json().status).toBe('ok');
      const mapped = fromStorageError(
        Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT_INDEX' }),
      );
      expect(mapped).toMatchObject({ code: 'unavailable' });
      const health = (await hub.app.inject({ url: '/health' })).json();
      expect(health).toMatchObject({
        status: 'degraded',
        integrity: { state: 'damaged', detail: expect.stringContaining('malformed') },
      });
    } finally {
      await hub.close();
    }
  });
});
