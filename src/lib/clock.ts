/** Time source, injected so tests can move it. Epoch seconds, as stored (SPEC §3). */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() / 1000 };

/** A clock tests can set and advance. */
export function manualClock(start = 1_767_225_600 /* 2026-01-01T00:00:00Z */) {
  let t = start;
  return {
    now: () => t,
    set: (value: number) => void (t = value),
    advance: (seconds: number) => void (t += seconds),
  };
}
export type ManualClock = ReturnType<typeof manualClock>;
