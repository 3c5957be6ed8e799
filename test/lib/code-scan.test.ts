import { describe, expect, it } from 'vitest';
import { createCodeScan, signCode } from '../../src/db/code-scan.js';

const vec = (...bits: number[]) => Float32Array.from({ length: 64 }, (_, i) => (bits.includes(i) ? 1 : -1));

describe('code scan', () => {
  it('sign codes: bit j of word w is dimension 32·w + j, set when > 0', () => {
    const v = new Float32Array(40);
    v[1] = 0.5;
    v[33] = 1e-30;
    v[2] = 0; // zero is not positive
    expect([...signCode(v)]).toEqual([2, 2]);
  });

  it('ranks by Hamming distance, filters, and survives deletes from the middle', () => {
    const s = createCodeScan(64);
    for (let i = 1; i <= 3000; i++)
      s.set(i, signCode(vec(i % 64, (i * 7) % 64)), i % 3, i % 2 === 0, i % 5 ? 'general' : 'habit');
    s.set(5000, signCode(vec(1, 2, 3)), 9, true, 'general');
    expect(s.size).toBe(3001);
    expect(s.nearest(vec(1, 2, 3), 1)).toEqual([5000]);
    s.delete(17); // a middle slot: the last moves into it
    s.delete(17);
    expect(s.size).toBe(3000);
    expect(s.has(17)).toBe(false);
    expect(s.nearest(vec(1, 2, 3), 1)).toEqual([5000]);
    expect(s.nearest(vec(1, 2, 3), 1, { entityId: 9, activeOnly: true, category: 'general' })).toEqual([5000]);
    expect(s.nearest(vec(1, 2, 3), 5, { entityId: 9, category: 'habit' })).toEqual([]);
    expect(s.nearest(vec(1, 2, 3), 5, { category: 'unknown' })).toEqual([]);
    // Fewer matches than asked: all of them, none that fails the filter.
    expect(s.nearest(vec(1), 50, { entityId: 9 })).toEqual([5000]);
    const near = s.nearest(vec(8, 56), 20, { activeOnly: true });
    expect(near).toHaveLength(20);
    expect(near.every((id) => id % 2 === 0 && id !== 17)).toBe(true);
    s.delete(5000);
    expect(s.nearest(vec(1, 2, 3), 3).includes(5000)).toBe(false);
  });
});
