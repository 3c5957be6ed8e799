/** Readings committed per minute over the last hour, counted from the ingest writer's commits (this process only). */
export function createRateMeter(now: () => number = () => Date.now() / 1000) {
  const buckets = new Map<number, number>(); // minute → readings
  const minute = () => Math.floor(now() / 60);
  return {
    add(n: number): void {
      const m = minute();
      buckets.set(m, (buckets.get(m) ?? 0) + n);
      for (const k of buckets.keys()) if (k < m - 60) buckets.delete(k);
    },
    /** Readings in the last 60 s (this minute and the part of the previous one) and the last hour. */
    rates(): { last_minute: number; last_hour: number } {
      const t = now();
      const m = Math.floor(t / 60);
      const frac = 1 - (t / 60 - m);
      let hour = 0;
      for (const [k, n] of buckets) if (k > m - 60) hour += n;
      return { last_minute: Math.round((buckets.get(m) ?? 0) + frac * (buckets.get(m - 1) ?? 0)), last_hour: hour };
    },
  };
}
export type RateMeter = ReturnType<typeof createRateMeter>;
