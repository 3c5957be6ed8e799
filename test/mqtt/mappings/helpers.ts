import { prng as sharedPrng } from '../../../scripts/lib/prng.js';
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

/** Seeded PRNG (the shared mulberry32): the hostile corpus is the same on every run. `int(n)` is in [0, n). */
export function prng(seed: number) {
  const r = sharedPrng(seed);
  return { next: r.next, int: (n: number) => r.int(0, n - 1), pick: r.pick };
}
