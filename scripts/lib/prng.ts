/**
 * mulberry32: a tiny seeded PRNG, so every run of a benchmark, eval or property test generates the
 * same data. Shared by scripts/ and test/. `state()` resumes a sequence later.
 */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** Integer in [lo, hi]. */
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
    chance: (p: number) => next() < p,
    /** The whole state: `prng(rng.state())` continues the same sequence. */
    state: () => a,
  };
}
/** A seeded generator from `prng`. */
export type Prng = ReturnType<typeof prng>;
