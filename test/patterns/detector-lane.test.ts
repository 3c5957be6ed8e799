/**
 * The detectors' lane (issue #36): in the built hub, detectors run in a worker thread on a read-only
 * connection, so a slow pattern run does not hold the requests that arrive meanwhile. A user's detector
 * that computes for a long time (a busy loop, as correlation over a big house does) is still running
 * when a reading sent after the run began is stored and answered; its findings still become memories.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/hub.js';
import { startServe, type ServeProcess } from '../helpers/process.js';

let dir: string;
let hub: ServeProcess;
const SLOW = `
let running = false;
export default {
  name: 'slow_one',
  description: 'computes for a while, then finds one thing',
  detect(ctx) {
    const until = Date.now() + 2500;
    while (Date.now() < until) {} // holds its thread, as a heavy detector does
    return [{ pattern_key: 'slow_one:lab', entity: 'lab', metric: 'x', category: 'insight',
      fact: 'The lab is measured (' + ctx.series().length + ' series).', confidence: 0.9, evidence: {} }];
  },
};
`;

beforeAll(async () => {
  dir = tempDir();
  const detectors = join(dir, 'detectors');
  mkdirSync(join(detectors, 'slow_one'), { recursive: true });
  writeFileSync(join(detectors, 'slow_one', 'index.js'), SLOW);
  writeFileSync(join(dir, 'config.toml'), `[patterns]\ndetectors_dir = "${detectors}"\n`);
  hub = await startServe(join(dir, 'data'), { HEARTH_CONFIG: join(dir, 'config.toml') });
}, 60_000);
afterAll(async () => {
  hub?.child.kill('SIGTERM');
  await new Promise((r) => hub?.child.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown) =>
  fetch(`${hub.http}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('detectors off the event loop', () => {
  it('a reading sent while a slow detector runs is answered before the run ends', { timeout: 60_000 }, async () => {
    expect((await post('/record', { entity_name: 'lab', metric: 'x', value: 1 })).status).toBe(200);
    const order: string[] = [];
    const run = post('/patterns/run', { detectors: ['slow_one'] }).then(async (r) => {
      order.push('patterns');
      return (await r.json()) as { found: { pattern_key: string }[]; errors: unknown[] };
    });
    // The run has begun once the hub has read the request; a reading sent now must not wait for it.
    await new Promise((r) => setTimeout(r, 500));
    const record = post('/record', { entity_name: 'lab', metric: 'x', value: 2 }).then((r) => {
      order.push('record');
      return r.status;
    });
    expect(await record).toBe(200);
    const report = await run;
    expect(order).toEqual(['record', 'patterns']);
    expect(report.errors).toEqual([]);
    expect(report.found.map((f) => f.pattern_key)).toEqual(['slow_one:lab']);
    const recall = await post('/recall', { query: 'lab measured', entity_name: 'lab' });
    expect(JSON.stringify(await recall.json())).toMatch(/The lab is measured \(1 series\)/);
  });
});
