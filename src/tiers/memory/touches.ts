/**
 * A recall's access bumps (last_accessed, access_count) are written a moment later, all of them in
 * one transaction, not one write and fsync per recall: reading stays a read (an SD card's wear, the
 * hybrid path's latency). At most TOUCH_FLUSH_MS of bumps are lost if the process is killed.
 */
import type { MemoryContext } from './memory.context.js';

/** How long a recall's access bumps wait to be written with others. */
export const TOUCH_FLUSH_MS = 2000;

export function createTouches({ db, clock, repo }: Pick<MemoryContext, 'db' | 'clock' | 'repo'>) {
  const touched = new Map<number, { n: number; at: number }>();
  let touchTimer: NodeJS.Timeout | undefined;
  function flush() {
    if (touchTimer) clearTimeout(touchTimer);
    touchTimer = undefined;
    if (!touched.size || !db.open) return;
    const bumps = new Map(touched);
    touched.clear();
    repo.touch(bumps);
  }
  return {
    flush,
    /** Counts one access of each memory; written within TOUCH_FLUSH_MS. */
    touch(ids: Iterable<number>) {
      const now = clock.now();
      for (const id of ids) {
        const b = touched.get(id);
        touched.set(id, { n: (b?.n ?? 0) + 1, at: now });
      }
      if (touched.size && !touchTimer) touchTimer = setTimeout(flush, TOUCH_FLUSH_MS).unref();
    },
  };
}
