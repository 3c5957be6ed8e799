/**
 * The rollups' warm cache: each series' latest hour, day and week as bags (distinct values with counts)
 * as of a reading id, within a byte budget, so an on-time reading is added without re-reading its hour,
 * day and week. Emptied whenever any reading was deleted (rows may be gone from cached buckets).
 */
import { bagBytes, type Bag } from './bag.js';

/** Values of a series' latest hour, day or week as of reading id `upTo`, so on-time readings are added without re-reading it. */
export interface Warm {
  start: number;
  upTo: number;
  bag: Bag;
}

type Entry = { hour?: Warm; day?: Warm; week?: Warm };
export type WarmType = keyof Entry;

export function createWarmCache(cacheBytes: number) {
  const warm = new Map<number, Entry>();
  let [warmBytes, seenDeletions] = [0, -1];
  const entryBytes = (w: Entry) =>
    (w.hour ? bagBytes(w.hour.bag) : 0) + (w.day ? bagBytes(w.day.bag) : 0) + (w.week ? bagBytes(w.week.bag) : 0);

  return {
    get: (seriesId: number): Entry => warm.get(seriesId) ?? {},

    /** Caches a series' latest hour, day or week, or drops the series from the cache when over budget. */
    remember(seriesId: number, type: WarmType, entry: Warm) {
      const w = warm.get(seriesId) ?? {};
      warmBytes -= entryBytes(w);
      if (!w[type] || w[type]!.start <= entry.start) w[type] = entry;
      if (warmBytes + entryBytes(w) > cacheBytes) {
        warm.delete(seriesId);
        return;
      }
      warm.set(seriesId, w);
      warmBytes += entryBytes(w);
    },

    /** Forgets everything when the deletion counter moved since the last look. */
    checkDeletions(deleted: number) {
      if (deleted === seenDeletions) return;
      warm.clear();
      [seenDeletions, warmBytes] = [deleted, 0];
    },

    /** What the cache holds: series and bytes (for /metrics). */
    stats: () => ({ series: warm.size, bytes: warmBytes }),
  };
}
export type WarmCache = ReturnType<typeof createWarmCache>;
