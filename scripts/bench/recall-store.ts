/**
 * The growing memory store of the recall benchmark, with a snapshot cache.
 *
 * Why a cache: `remember` costs time proportional to the store (its duplicate check runs a vec0
 * KNN and an FTS5 query over all memories, not just the entity's), so growing to 50k through the
 * real write path takes many minutes on 2 cores — far more than the rest of the bench. The first
 * run builds each size and snapshots it; later runs copy the snapshot and go straight to the
 * measurements. The cache key covers what shapes a store (see `cacheKey`), so a change to the
 * write path, the embedder's output or the fact generator rebuilds; `--fresh` forces it.
 *
 * Snapshots are taken right after growth, before a size's measurements mutate the store; the
 * measurements are deterministic (seeded queries, manual clock), so growing on from a restored
 * snapshot or from the live store gives the same database.
 */
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Embedder } from '../../src/ai/types.js';
import { parseConfig } from '../../src/config/load.js';
import { openDatabase, type Db } from '../../src/db/open.js';
import { manualClock, type ManualClock } from '../../src/lib/clock.js';
import { createServices, type Services } from '../../src/services.js';
import { RememberInput } from '../../src/tiers/memory/memory.schemas.js';
import { prng, since, tempDir } from './common.js';
import { entities, nextFact, type Entity } from './household.js';

const SEED = 20_260_101;
const DIST = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/**
 * Compiled code of the memory write path (relative to dist/). Not the migrations: a snapshot is
 * opened through `openDatabase`, which migrates it like any user's database. Not the embedder's
 * code nor the fact templates either: their behaviour is keyed instead (sample facts and their
 * vectors), so unrelated edits do not throw away a 15-minute build.
 */
const KEYED = [
  ...['memory.service', 'memory.context', 'remember', 'duplicates', 'memory.repo', 'memory.schemas', 'text-match'].map(
    (f) => `src/tiers/memory/${f}.js`,
  ),
  ...['vectors', 'vector-layout', 'vector-index', 'vector-codes'].map((f) => `src/db/${f}.js`),
  'src/ai/text.js',
  'src/tiers/entities',
  'src/tiers/audit',
];
/** Bump when the way a store is grown here changes (seeds, clock steps, snapshot contents). */
const STORE_VERSION = 1;

/** What a snapshot needs to continue exactly where its build stopped. */
interface Sidecar {
  size: number;
  attempts: number;
  reinforced: number;
  clock: number;
  rng: number;
  /** this size's growth segment, when it was built */
  from: number;
  buildMs: number;
  built: string;
}

/** How one `growTo` went: built now (with its rate), or restored from a snapshot. */
export interface Growth {
  from: number;
  size: number;
  cached: boolean;
  ms: number;
  rate: number;
  reinforced: number;
  attempts: number;
  built: string;
}

function files(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((f) => (f.endsWith('.map') ? [] : files(join(path, f))));
}

/** sha256 of the keyed compiled files, 200 sample facts of the generator and their vectors. */
async function cacheKey(embedder: Embedder): Promise<string> {
  const hash = createHash('sha256').update(`${STORE_VERSION}|${SEED}|${embedder.fingerprint}`);
  for (const f of KEYED.flatMap((k) => files(join(DIST, k)))) hash.update(f.slice(DIST.length)).update(readFileSync(f));
  const [rng, ents] = [prng(SEED), entities(prng(SEED))];
  const sample = Array.from({ length: 200 }, () => JSON.stringify(nextFact(rng, ents)));
  hash.update(sample.join('\n'));
  for (const v of await embedder.embed(sample)) hash.update(Buffer.from(v.buffer, v.byteOffset, v.byteLength));
  return hash.digest('hex').slice(0, 16);
}

/** A store that grows through `memory.remember`, restoring cached snapshots when it can. */
export async function openGrowingStore(embedder: Embedder, opts: { cache: boolean; log: (msg: string) => void }) {
  const work = tempDir('recall');
  const dataDir = join(work.dir, 'data');
  const cacheDir = join(tmpdir(), 'hearth-bench-cache', `recall-${await cacheKey(embedder)}`);
  const config = parseConfig({ data_dir: dataDir, mqtt: { mode: 'off' }, timeseries: { timezone: 'UTC' } });
  const ents: Entity[] = entities(prng(SEED));
  let state: Omit<Sidecar, 'size' | 'from' | 'buildMs' | 'built'> = {
    attempts: 0,
    reinforced: 0,
    clock: manualClock().now(),
    rng: prng(SEED + 1).state(),
  };
  let stored = 0;
  let db: Db;
  let clock: ManualClock;
  let services: Services;

  const open = () => {
    db = openDatabase({ dataDir });
    clock = manualClock(state.clock);
    services = createServices({ db, clock, config, embedder, llm: null });
  };
  open();
  if (opts.cache) opts.log(`recall: snapshot cache ${cacheDir}`);

  const snapshot = (size: number) => join(cacheDir, `${size}.db`);

  return {
    get db() {
      return db;
    },
    get clock() {
      return clock;
    },
    get services() {
      return services;
    },
    get stored() {
      return stored;
    },
    entities: ents,
    dir: work.dir,

    /** Grows the store to `size` active memories (or restores that snapshot). */
    async growTo(size: number): Promise<Growth> {
      const from = stored;
      if (opts.cache && existsSync(`${snapshot(size)}.json`)) {
        const side = JSON.parse(readFileSync(`${snapshot(size)}.json`, 'utf8')) as Sidecar;
        db.close();
        for (const ext of ['', '-wal', '-shm']) rmSync(join(dataDir, `hearth.db${ext}`), { force: true });
        copyFileSync(snapshot(size), join(dataDir, 'hearth.db'));
        state = side;
        stored = side.size;
        open();
        return {
          from: side.from,
          size,
          cached: true,
          ms: side.buildMs,
          rate: ((side.size - side.from) / side.buildMs) * 1000,
          reinforced: side.reinforced,
          attempts: side.attempts,
          built: side.built,
        };
      }
      const rng = prng(state.rng);
      const t0 = performance.now();
      while (stored < size) {
        clock.advance(rng.int(30, 3600)); // spread `created` so recency varies
        const r = await services.memory.remember(RememberInput.parse(nextFact(rng, ents)));
        state.attempts++;
        if (r.action === 'added') stored++;
        else state.reinforced++;
        if (r.action === 'added' && stored % 5000 === 0)
          opts.log(`recall: ${stored} memories (${(since(t0) / 1000).toFixed(0)} s this segment)`);
      }
      const ms = since(t0);
      state = { ...state, clock: clock.now(), rng: rng.state() };
      const built = new Date().toISOString();
      if (opts.cache) {
        // Snapshots of other keys are stale (code or embedder changed): keep the disk bounded.
        const root = dirname(cacheDir);
        if (existsSync(root))
          for (const d of readdirSync(root))
            if (d.startsWith('recall-') && join(root, d) !== cacheDir)
              rmSync(join(root, d), { recursive: true, force: true });
        mkdirSync(cacheDir, { recursive: true });
        db.pragma('wal_checkpoint(TRUNCATE)');
        copyFileSync(join(dataDir, 'hearth.db'), snapshot(size));
        writeFileSync(
          `${snapshot(size)}.json`,
          JSON.stringify({ ...state, size, from, buildMs: ms, built } satisfies Sidecar),
        );
      }
      return {
        from,
        size,
        cached: false,
        ms,
        rate: ((size - from) / ms) * 1000,
        reinforced: state.reinforced,
        attempts: state.attempts,
        built,
      };
    },

    /**
     * Marginal remember throughput at the current size: `n` more facts from their own seeded
     * generator, timed. They stay in the store (the next size's growth counts them).
     */
    async probe(n: number): Promise<{ rate: number; ms: number; added: number }> {
      const rng = prng(SEED + stored);
      let added = 0;
      const t0 = performance.now();
      for (let i = 0; i < n; i++) {
        clock.advance(rng.int(30, 3600));
        if ((await services.memory.remember(RememberInput.parse(nextFact(rng, ents)))).action === 'added') added++;
      }
      const ms = since(t0);
      stored += added;
      state.clock = clock.now();
      return { rate: (n / ms) * 1000, ms, added };
    },

    close() {
      db.close();
      work.remove();
    },
  };
}
/** The store `openGrowingStore` returns. */
export type GrowingStore = Awaited<ReturnType<typeof openGrowingStore>>;
