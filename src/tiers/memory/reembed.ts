/**
 * Re-embedding after a model switch (SPEC §4), without a gap: when the configured embedder differs
 * from the stored fingerprint, every memory is embedded again into a new index beside the old one
 * (db/vectors.ts `rebuildBeside`), in batches in id order, while recall keeps answering (by keyword:
 * the old vectors cannot be compared with the new model's query vectors). The new index goes live
 * only when every memory is in it (`swapNext`, one transaction); a failure leaves the old index and
 * a cursor, and the next run resumes from it. Memories written meanwhile are picked up by the same
 * id-ordered walk. Progress is visible in /health (`embedder.reembed`) and the log.
 */
import type { Embedder } from '../../ai/types.js';
import type { Db } from '../../db/open.js';
import type { VectorStore } from '../../db/vectors.js';
import type { MemoryRepo } from './memory.repo.js';
import { indexText } from './text-match.js';

export interface ReembedStatus {
  state: 'idle' | 'running' | 'done' | 'failed';
  from?: string;
  to: string;
  done: number;
  total: number;
  error?: string;
}

const BATCH = 64;

export function createReembedder(deps: {
  db: Db;
  /** The memory service's repository (services.ts). */
  repo: MemoryRepo;
  vectors: VectorStore;
  embedder: Embedder;
  log?: (msg: string) => void;
}) {
  const { db, repo, vectors, embedder } = deps;
  const log = deps.log ?? (() => {});
  const status: ReembedStatus = { state: 'idle', to: embedder.fingerprint, done: 0, total: 0 };
  let running: Promise<ReembedStatus> | undefined;

  async function work(onProgress?: (s: ReembedStatus) => void): Promise<ReembedStatus> {
    const finish = (how: string) => {
      status.state = 'done';
      log(`reembed: ${embedder.fingerprint} index is live (${how})`);
      onProgress?.(status);
      return status;
    };
    const stored = vectors.stored;
    Object.assign(status, {
      state: 'running',
      from: stored ? `${stored.model}:${stored.dim}` : undefined,
      error: undefined,
    });
    let cursor = vectors.rebuildBeside();
    status.total = repo.count();
    status.done = repo.countUpTo(cursor);
    if (cursor === 0)
      log(`reembed: building a ${embedder.fingerprint} index beside ${status.from} for ${status.total} memories`);
    else log(`reembed: resuming at memory ${cursor} (${status.done}/${status.total})`);
    try {
      for (;;) {
        const rows = repo.after(cursor, BATCH);
        if (!rows.length) break;
        const vecs = await embedder.embed(
          rows.map((r) => indexText(r.entity_name, r.fact)),
          { write: true },
        );
        // Another process on this store (`hearth reembed` beside the service) finished the same build first.
        if (vectors.state === 'ready') return finish('another process made it live');
        db.transaction(() =>
          rows.forEach((r, i) => vectors.putNext(r.id, r.entity_id, r.category, r.status === 'active', vecs[i])),
        )();
        cursor = rows[rows.length - 1].id;
        status.done += rows.length;
        status.total = Math.max(status.total, repo.count());
        onProgress?.(status);
      }
      vectors.swapNext();
      return finish(`${status.done} memories`);
    } catch (e) {
      status.state = 'failed';
      status.error = (e as Error).message;
      log(
        `reembed: stopped at memory ${cursor} (${status.done}/${status.total}): ${status.error}; the old index stays and the next run resumes`,
      );
    }
    onProgress?.(status);
    return status;
  }

  return {
    status,
    /** Rebuilds if the index is stale (once at a time); resolves with the final status. */
    run(onProgress?: (s: ReembedStatus) => void): Promise<ReembedStatus> {
      if (vectors.state === 'ready') return Promise.resolve(status);
      running ??= work(onProgress).finally(() => (running = undefined));
      return running;
    },
  };
}
export type Reembedder = ReturnType<typeof createReembedder>;
