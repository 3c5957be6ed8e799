/**
 * Which vector index is live, what made it, and the one being built beside it (db/vectors.ts): the
 * `vector_index` pointer row (created here, like the vec0 tables: derived data, no migration), the
 * `embed_meta` fingerprint, and the check for other processes' commits on the same file.
 */
import type { Db } from './open.js';
import { convertLayout, createTables, preferredLayout, tableStmts, type TableStmts } from './vector-layout.js';

export type VectorState = 'ready' | 'stale';

/**
 * What made the vectors, as storage keeps it beside them (the embedder's identity, never the embedder:
 * storage keeps vectors, it does not make them — src/ai's Embedder fits this shape).
 */
export interface VectorModel {
  provider: string;
  model: string;
  dim: number;
  /** `model:dim`. */
  fingerprint: string;
}

type IndexRow = {
  live: string;
  next: string | null;
  next_model: string | null;
  next_dim: number | null;
  next_cursor: number;
};
type Stored = { provider: string; model: string; dim: number };

/** The two table names used in turn (vec0 cannot `ALTER TABLE … RENAME`: its shadow tables keep the old name). */
export const otherTable = (name: string) => (name === 'memory_vectors' ? 'memory_vectors_b' : 'memory_vectors');

/** `onMove`: another process moved the index (swap, rebuild, create); cached copies of it are void. */
export function createIndexState(db: Db, embedder: VectorModel, onMove: () => void) {
  db.exec(`CREATE TABLE IF NOT EXISTS vector_index (
    id INTEGER PRIMARY KEY CHECK (id = 1), live TEXT NOT NULL,
    next TEXT, next_model TEXT, next_dim INTEGER, next_cursor INTEGER NOT NULL DEFAULT 0)`);
  db.prepare("INSERT OR IGNORE INTO vector_index (id, live) VALUES (1, 'memory_vectors')").run();
  const row = db.prepare('SELECT live, next, next_model, next_dim, next_cursor FROM vector_index WHERE id = 1');
  const indexRow = () => row.get() as IndexRow;
  const first = indexRow().live;
  const meta = db.prepare('SELECT provider, model, dim FROM embed_meta WHERE id = 1');
  const readMeta = () => meta.get() as Stored | undefined;
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let liveStmts: TableStmts | undefined;
  let nextStmts: TableStmts | undefined;

  /** The mutable part: which table is live, what made it, whether it fits the embedder. */
  const ix = {
    live: convertLayout(db, first, otherTable(first)),
    state: 'stale' as VectorState,
    stored: undefined as Stored | undefined,
    seenVersion: dataVersion.get(),
  };
  const createTable = (dim: number, name: string = ix.live): void =>
    createTables(db, name, dim, preferredLayout(embedder.provider));
  /** Reads the fingerprint again (writing this embedder's when there is none) and the state from it. */
  const refresh = (): void => {
    ix.stored = readMeta();
    if (!ix.stored) {
      db.transaction(() => {
        createTable(embedder.dim);
        // OR IGNORE: another process may have created the index first; then its fingerprint wins.
        db.prepare('INSERT OR IGNORE INTO embed_meta (id, provider, model, dim, updated) VALUES (1, ?, ?, ?, ?)').run(
          embedder.provider,
          embedder.model,
          embedder.dim,
          Date.now() / 1000,
        );
      })();
      ix.stored = readMeta();
    }
    ix.state = ix.stored!.model === embedder.model && ix.stored!.dim === embedder.dim ? 'ready' : 'stale';
  };
  /** The row of the index being built for the current embedder, if any. */
  const building = () => {
    const r = indexRow();
    return r.next && r.next_model === embedder.model && r.next_dim === embedder.dim ? r : undefined;
  };
  /** The live table changed (or the one being built): statements are prepared anew. */
  const moved = (live: string = ix.live) => {
    ix.live = live;
    liveStmts = nextStmts = undefined;
  };
  /**
   * Another process on the same file (`hearth mcp` beside `hearth serve`, or `hearth reembed` run
   * while the service is up) may swap, rebuild or create the index. Each entry point first checks
   * PRAGMA data_version (it moves only when another connection commits): on a move the cached codes
   * are dropped, the live table and the fingerprint are read again, and the state follows (a process
   * whose embedder no longer matches the new index turns stale and answers by keyword).
   */
  const sync = () => {
    const v = dataVersion.get();
    if (v === ix.seenVersion) return;
    ix.seenVersion = v;
    onMove();
    const now = indexRow().live;
    if (now !== ix.live) moved(now);
    refresh();
  };
  refresh();
  return Object.assign(ix, {
    indexRow,
    createTable,
    refresh,
    building,
    moved,
    sync,
    /** The live index's statements. */
    stmts: () => (liveStmts ??= tableStmts(db, ix.live)),
    /** The statements of the index being built for the current embedder, if any. */
    next() {
      const r = building();
      return r ? (nextStmts ??= tableStmts(db, r.next!)) : undefined;
    },
    forgetNext() {
      nextStmts = undefined;
    },
    /**
     * sync() narrows the window between another process's swap and a statement to microseconds; a
     * read that still meets it fails with "no such table" and runs once more on the new table.
     */
    reading<T>(run: () => T): T {
      try {
        return run();
      } catch (e) {
        const was = ix.seenVersion;
        if (!/no such table/.test((e as Error)?.message ?? '')) throw e;
        sync();
        if (ix.seenVersion === was) throw e;
        return run();
      }
    },
  });
}
export type IndexState = ReturnType<typeof createIndexState>;
