import type { Ingest, Mapping, MappingContext } from '../../../src/mqtt/mappings/types.js';

/** A context with learned units and a zone, as the bridge builds it. */
export function context(timeZone = 'Europe/Berlin', units: Record<string, string> = {}): MappingContext {
  return { timeZone, units: { get: (entity, metric) => units[`${entity}|${metric}`] } };
}

export const parse = (m: Mapping, topic: string, payload: string | Buffer, ctx = context()): Ingest[] =>
  m.parse(topic, typeof payload === 'string' ? Buffer.from(payload) : payload, ctx);

/** Readings as `metric → value` for compact assertions. */
export const values = (items: Ingest[]) =>
  Object.fromEntries(items.map((i) => (i.kind === 'reading' ? [i.metric, i.value] : [i.kind, i])));

/** Seeded PRNG (mulberry32): the hostile corpus is the same on every run. */
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
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
  };
}
