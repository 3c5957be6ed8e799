/**
 * The in-memory code scan (code-scan.ts) of the live index, for the `bit` layout: a copy of vec0's
 * codes and metadata, loaded in the background in id order after the first search (vec0 answers
 * until then). Every write through the vector store marks its memory dirty, and a search first
 * re-reads dirty memories from vec0 (they stay dirty inside a transaction, which may still roll back).
 * A commit by another connection (PRAGMA data_version) or a new live index drops the copy and loads
 * it anew. Candidates only: the exact re-rank reads the float table.
 */
import type { Db } from './open.js';
import type { statementCache } from './statements.js';
import { createCodeScan, type CodeScan } from './code-scan.js';
import { bitsFor, floatTable } from './vector-layout.js';

/**
 * Rows per step of loading the in-memory code scan: one vec0 point read each (≈ 15 µs on x86). At 50k
 * memories, 2000 a step held the event loop up to 30 ms and 200 up to 9–10 ms, for a load of 0.6 s
 * either way, so MQTT acks never wait long behind it.
 */
const LOAD_CHUNK = 200;
/** More changed memories than this since the last search: reload the code scan instead of patching it. */
const DIRTY_RELOAD = 5000;

const changeListeners = new WeakMap<Db, Set<(ids: number[]) => void>>();
/**
 * Code that writes vec0 tables or the memories' entity, category or status directly (entity merge)
 * names the memories it changed, so the in-memory code scans re-read them.
 */
export function vectorsChanged(db: Db, ids: number[]): void {
  for (const f of changeListeners.get(db) ?? []) f(ids);
}

/** What the code cache reads of the index: its live table, its dimension, and the check for other writers. */
export interface CodeSource {
  readonly live: string;
  readonly stored: { dim: number } | undefined;
  sync(): void;
}

type CodeRow = { embedding: Buffer; entity_id: number | bigint; active: number | bigint; category: string };

export function createCodeCache(db: Db, prepared: ReturnType<typeof statementCache>, index: CodeSource) {
  let scan: CodeScan | undefined;
  let loading: CodeScan | undefined;
  const dirty = new Set<number>();
  const drop = () => {
    scan = loading = undefined;
    dirty.clear();
  };
  const markDirty = (ids: Iterable<number>) => {
    if (!scan && !loading) return;
    for (const id of ids) dirty.add(id);
    // Past this many, reloading beats patching (and the set stays bounded while nobody searches).
    if (dirty.size > DIRTY_RELOAD) drop();
  };
  let listeners = changeListeners.get(db);
  if (!listeners) changeListeners.set(db, (listeners = new Set()));
  listeners.add(markDirty);

  const codeOf = (table: string) =>
    prepared(`SELECT embedding, entity_id, active, category FROM ${table} WHERE memory_id = ?`);
  /** Copies one memory's code and metadata from vec0 (`read`: codeOf) into `into`; false when vec0 has no such row. */
  const copyCode = (into: CodeScan, read: ReturnType<typeof codeOf>, id: number): boolean => {
    const r = read.get(BigInt(id)) as CodeRow | undefined;
    if (r) into.set(id, r.embedding, Number(r.entity_id), Number(r.active) === 1, r.category);
    return !!r;
  };
  const startLoad = () => {
    if (loading || !index.stored) return;
    const target = (loading = createCodeScan(bitsFor(index.stored.dim)));
    const table = index.live;
    const page =
      `SELECT memory_id FROM ${floatTable(table)} ` + `WHERE memory_id > ? ORDER BY memory_id LIMIT ${LOAD_CHUNK}`;
    let after = 0;
    const step = () => {
      if (loading !== target || !db.open) return;
      // Never copy what an open transaction (a group commit between ticks) may still roll back.
      if (db.inTransaction) return void setTimeout(step, 1);
      // Another process may have swapped the index meanwhile: stop; the next search starts anew.
      index.sync();
      if (loading !== target || table !== index.live) return;
      const ids = prepared(page).pluck().all(after) as number[];
      const read = codeOf(table);
      for (const id of ids) copyCode(target, read, id);
      if (ids.length === LOAD_CHUNK) {
        after = ids[ids.length - 1];
        setImmediate(step);
      } else {
        scan = target;
        loading = undefined;
      }
    };
    setImmediate(step);
  };

  return {
    /** `ready` (searches use it), `loading` (vec0 answers meanwhile) or `off`. */
    get status(): 'off' | 'loading' | 'ready' {
      return scan ? 'ready' : loading ? 'loading' : 'off';
    },
    markDirty,
    drop,
    /** The code scan when it is loaded and current, else undefined (and its loading started). */
    current(): CodeScan | undefined {
      if (!scan) {
        startLoad();
        return undefined;
      }
      if (dirty.size) {
        const read = codeOf(index.live);
        for (const id of dirty) if (!copyCode(scan, read, id)) scan.delete(id);
        if (!db.inTransaction) dirty.clear();
      }
      return scan;
    },
  };
}
