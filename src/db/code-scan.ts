/**
 * An in-memory copy of an index's binary codes (one sign bit per dimension) with the metadata a
 * KNN filters on, scanned by Hamming distance in plain JS. It only *proposes* candidates: vectors.ts
 * re-ranks them by the exact cosine from the float table, and recall checks every hit against
 * `memories` with its filters, so a stale entry can cost a candidate slot but never return a wrong
 * memory.
 *
 * The codes and metadata are copied from the vec0 table (the truth for a search, as before).
 *
 * Why not sqlite-vec's `bit[]` KNN: at 50k × 512 bits the same top-180 took 15–17 ms there (11 ms
 * without metadata columns) and 2.5–3.5 ms here (scripts in docs/recall-quality.md), 64 bytes a
 * memory either way (3.2 MB at 50k).
 */

export interface CodeFilter {
  entityId?: number;
  activeOnly?: boolean;
  category?: string;
}

/**
 * Sign bits of `v`, 32 dimensions to a word (bit j of word w is dimension 32·w + j, set when > 0):
 * sqlite-vec's `vec_quantize_binary` byte layout read as little-endian words.
 */
export function signCode(v: Float32Array, out = new Uint32Array(Math.ceil(v.length / 32))): Uint32Array {
  out.fill(0);
  for (let i = 0; i < v.length; i++) if (v[i] > 0) out[i >>> 5] |= 1 << (i & 31);
  return out;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export function createCodeScan(dim: number) {
  const words = Math.ceil(dim / 32);
  let cap = 1024;
  let n = 0;
  let ids = new Int32Array(cap);
  let codes = new Uint32Array(cap * words);
  let entity = new Int32Array(cap);
  let active = new Uint8Array(cap);
  let cat = new Uint16Array(cap);
  const slotOf = new Map<number, number>();
  const catId = new Map<string, number>();

  const grow = () => {
    cap *= 2;
    const more = <T extends Int32Array | Uint32Array | Uint8Array | Uint16Array>(a: T, k = 1): T => {
      const b = new (a.constructor as new (n: number) => T)(cap * k);
      b.set(a);
      return b;
    };
    ids = more(ids);
    codes = more(codes, words);
    entity = more(entity);
    active = more(active);
    cat = more(cat);
  };
  const intern = (c: string) => {
    let i = catId.get(c);
    if (i === undefined) catId.set(c, (i = catId.size));
    return i;
  };

  return {
    get size() {
      return n;
    },
    /** Adds or replaces one memory's code (sqlite-vec's `bit[]` bytes, or `signCode`'s words) and metadata. */
    set(memoryId: number, code: Uint8Array | Uint32Array, entityId: number, isActive: boolean, category: string): void {
      let s = slotOf.get(memoryId);
      if (s === undefined) {
        if (n === cap) grow();
        s = n++;
        slotOf.set(memoryId, s);
        ids[s] = memoryId;
      }
      const slot = codes.subarray(s * words, (s + 1) * words);
      if (code instanceof Uint32Array) slot.set(code);
      else {
        // Bytes in order: on a little-endian machine (x86, ARM as Linux runs it) word w holds bytes 4w…4w+3.
        slot.fill(0);
        new Uint8Array(slot.buffer, slot.byteOffset, words * 4).set(code.subarray(0, words * 4));
      }
      entity[s] = entityId;
      active[s] = isActive ? 1 : 0;
      cat[s] = intern(category);
    },
    delete(memoryId: number): void {
      const s = slotOf.get(memoryId);
      if (s === undefined) return;
      slotOf.delete(memoryId);
      const last = --n;
      if (s !== last) {
        // Move the last slot into the hole.
        ids[s] = ids[last];
        codes.copyWithin(s * words, last * words, (last + 1) * words);
        entity[s] = entity[last];
        active[s] = active[last];
        cat[s] = cat[last];
        slotOf.set(ids[s], s);
      }
    },
    has: (memoryId: number) => slotOf.has(memoryId),
    /** The ids of the `k` codes nearest to `vector`'s by Hamming distance among those passing `f` (ties: any). */
    nearest(vector: Float32Array, k: number, f: CodeFilter = {}): number[] {
      const q = signCode(vector, new Uint32Array(words));
      const wantCat = f.category === undefined ? -1 : catId.get(f.category);
      if (wantCat === undefined || k <= 0) return [];
      const dist = new Uint16Array(n);
      const hist = new Uint32Array(words * 32 + 2);
      const NONE = words * 32 + 1;
      for (let s = 0; s < n; s++) {
        if (
          (f.entityId !== undefined && entity[s] !== f.entityId) ||
          (f.activeOnly && !active[s]) ||
          (wantCat >= 0 && cat[s] !== wantCat)
        ) {
          dist[s] = NONE;
          continue;
        }
        let d = 0;
        const o = s * words;
        for (let w = 0; w < words; w++) d += popcount(codes[o + w] ^ q[w]);
        dist[s] = d;
        hist[d]++;
      }
      // The distance at which k candidates are reached; take everything nearer, then ties up to k.
      let cut = 0;
      for (let acc = 0; cut < NONE; cut++) if ((acc += hist[cut]) >= k) break;
      const out: number[] = [];
      for (let s = 0; s < n; s++) if (dist[s] < cut) out.push(ids[s]);
      if (cut < NONE) for (let s = 0; s < n && out.length < k; s++) if (dist[s] === cut) out.push(ids[s]);
      return out;
    },
  };
}
export type CodeScan = ReturnType<typeof createCodeScan>;
