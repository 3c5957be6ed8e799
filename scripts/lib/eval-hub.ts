/** A throwaway hub (real SQLite in a temp dir, real services) for eval and bench scripts. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../src/config/load.js';
import type { ConfigInput } from '../../src/config/schema.js';
import { openDatabase } from '../../src/db/open.js';
import { createServices } from '../../src/services.js';
import { manualClock } from '../../src/lib/clock.js';
import type { Embedder } from '../../src/ai/types.js';

export function scratchServices(embedder: Embedder, config: ConfigInput = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-scratch-'));
  const cfg = parseConfig({
    ...config,
    data_dir: join(dir, 'data'),
    mqtt: { mode: 'off' },
    timeseries: { timezone: 'UTC' },
  });
  const db = openDatabase({ dataDir: cfg.data_dir });
  const clock = manualClock();
  const services = createServices({ db, clock, config: cfg, embedder, llm: null });
  return {
    services,
    clock,
    db,
    dir,
    close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Percentile by nearest rank (p in 0..100) of an unsorted sample. */
export function percentile(sample: number[], p: number): number {
  const s = [...sample].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
