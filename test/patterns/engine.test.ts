import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildTestHub, post, tempDir, type TestHub } from '../helpers/hub.js';

/**
 * A user's own detectors, written as plain ESM files in a configured directory: one reports the
 * average of bedroom temperature readings (so its value can drift), one always throws.
 */
function userDetectors(): string {
  const dir = tempDir('hearth-detectors-');
  writeFileSync(
    join(dir, 'avg_temp.mjs'),
    `
export default {
  name: 'avg_temp',
  description: 'average bedroom temperature (test detector)',
  detect(ctx) {
    const s = ctx.series().find((x) => x.entity === 'Brian' && x.metric === 'bedroom_temperature');
    if (!s) return [];
    const raw = ctx.raw(s.id, ctx.now - 30 * 86400);
    const avg = raw.reduce((a, p) => a + p.value, 0) / raw.length;
    return [{ pattern_key: 'avg_temp:Brian:bedroom_temperature', entity: 'Brian', metric: s.metric, category: 'preference',
      fact: 'Brian keeps the bedroom at ' + ctx.format(avg, s.unit) + ' at night', confidence: 0.8, evidence: { avg, n: raw.length } }];
  },
};`,
  );
  mkdirSync(join(dir, 'broken'));
  writeFileSync(
    join(dir, 'broken', 'index.js'),
    `export default { name: 'broken', description: 'always fails', detect() { throw new Error('boom'); } };`,
  );
  writeFileSync(join(dir, 'notes.txt'), 'not a detector');
  return dir;
}

let hub: TestHub | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

async function seed(h: TestHub, value: number) {
  const now = h.clock.now();
  const readings = Array.from({ length: 20 }, (_, i) => ({
    entity_name: 'Brian',
    metric: 'bedroom_temperature',
    value,
    unit: '°F',
    ts: now - i * 3600,
  }));
  expect((await post(h, '/record/bulk', { readings })).body.inserted).toBe(20);
}

describe('pattern engine', () => {
  it('promotes once, reinforces on the next run, supersedes when the value drifts, and isolates a failing detector', async () => {
    hub = await buildTestHub({ config: { patterns: { detectors_dir: userDetectors() } } });
    const events: unknown[] = [];
    hub.services.events.on('pattern_promoted', (e) => events.push(e));
    await seed(hub, 68);
    const first = await post(hub, '/patterns/run', {});
    expect(first.status).toBe(200);
    expect(first.body.promoted).toHaveLength(1);
    expect(first.body.promoted[0]).toMatchObject({ action: 'added', fact: 'Brian keeps the bedroom at 68°F at night' });
    expect(first.body.errors).toEqual([{ detector: 'broken', message: 'boom' }]);
    const memory = hub.services.memory.get(first.body.promoted[0].memory_id)!;
    expect(memory).toMatchObject({
      source_trust: 3,
      fact_key: 'avg_temp:Brian:bedroom_temperature',
      source: 'pattern_engine',
      category: 'preference',
    });
    expect(events).toHaveLength(1);

    const second = await post(hub, '/patterns/run', {});
    expect(second.body.promoted).toEqual([]);
    expect(second.body.found).toHaveLength(1);
    expect((hub.db.prepare('SELECT count(*) n FROM memories').get() as { n: number }).n).toBe(1);

    hub.clock.advance(3 * 86400);
    await seed(hub, 72);
    const third = await post(hub, '/patterns/run', {});
    expect(third.body.promoted[0]).toMatchObject({
      action: 'superseded',
      fact: 'Brian keeps the bedroom at 70°F at night',
    });
    expect(hub.services.memory.get(memory.id)!.status).toBe('superseded');
    const active = hub.db.prepare("SELECT count(*) n FROM memories WHERE status = 'active'").get() as { n: number };
    expect(active.n).toBe(1);
    const listed = await hub.app.inject({ url: '/patterns' });
    expect(listed.json().promoted[0]).toMatchObject({
      pattern_key: 'avg_temp:Brian:bedroom_temperature',
      detector: 'avg_temp',
      memory_id: third.body.promoted[0].memory_id,
    });
    const recall = await post(hub, '/recall', { query: 'what temperature does Brian like in the bedroom' });
    expect(recall.body.results[0].fact).toBe('Brian keeps the bedroom at 70°F at night');
  });

  it('dry_run reports findings without promoting; selected detectors only', async () => {
    hub = await buildTestHub({ config: { patterns: { detectors_dir: userDetectors() } } });
    await seed(hub, 68);
    const dry = await post(hub, '/patterns/run', { dry_run: true, detectors: ['avg_temp'] });
    expect(dry.body.found).toHaveLength(1);
    expect(dry.body.promoted).toEqual([]);
    expect(dry.body.errors).toEqual([]);
    expect((hub.db.prepare('SELECT count(*) n FROM memories').get() as { n: number }).n).toBe(0);
  });

  it('refuses config for an unknown detector or bad options, naming the key', async () => {
    await expect(buildTestHub({ config: { patterns: { detectors: { no_such: { x: 1 } } } } })).rejects.toThrow(
      /patterns\.detectors\.no_such/,
    );
    await expect(buildTestHub({ config: { patterns: { detectors_dir: '/nonexistent/dir' } } })).rejects.toThrow(
      /patterns\.detectors_dir/,
    );
    await expect(
      buildTestHub({ config: { patterns: { detectors: { stable_value: { max_cv: 'low' } } } } }),
    ).rejects.toThrow(/^patterns\.detectors\.stable_value\.max_cv: /);
    const off = await buildTestHub({ config: { patterns: { detectors: { anomaly: { enabled: false } } } } });
    expect(off.services.patterns.detectors().map((d) => d.name)).not.toContain('anomaly');
    expect(off.services.patterns.detectors()).toHaveLength(5);
    await off.close();
  });
});
