import { describe, expect, it } from 'vitest';
import { fuse, gateVectorHits, keywordKept, type VectorGate } from '../../src/tiers/memory/evidence-gate.js';
import { containsRun } from '../../src/tiers/memory/recall.js';

const g: VectorGate = { floor: 0.5, accept: 0.7, margin: 0.08, band: 0.05, support: 0.3, kwAlone: 0.8, confirm: 0.45 };
const hits = (...s: number[]) => s.map((similarity, i) => ({ memory_id: i + 1, similarity }));
const none = () => 0;

// The thresholded gate now serves session search (episodic); recall uses the confidence model (confidence.test.ts).
describe('evidence gate', () => {
  it('a top-1 at or above accept is evidence alone, with the hits within band of it', () => {
    expect([...gateVectorHits(hits(0.75, 0.72, 0.6), g, none).keys()]).toEqual([1, 2]);
  });

  it('between floor and accept the top-1 needs a margin over the runner-up …', () => {
    expect([...gateVectorHits(hits(0.6, 0.5), g, none).keys()]).toEqual([1]);
    expect(gateVectorHits(hits(0.6, 0.55), g, none).size).toBe(0);
  });

  it('… or keyword support; without evidence only keyword-confirmed hits stay', () => {
    expect([...gateVectorHits(hits(0.6, 0.58), g, (id) => (id === 1 ? 0.4 : 0)).keys()]).toEqual([1, 2]);
    expect([...gateVectorHits(hits(0.6, 0.58, 0.55), g, (id) => (id === 3 ? 0.4 : 0)).keys()]).toEqual([3]);
  });

  it('the margin is over the best rival, not over a restatement of the top-1', () => {
    // 0.58 vs 0.575: no margin; but hit 2 says what hit 1 says, so hit 3 (0.4) is the rival.
    expect(gateVectorHits(hits(0.58, 0.575, 0.4), g, none).size).toBe(0);
    expect([...gateVectorHits(hits(0.58, 0.575, 0.4), g, none, new Set([2])).keys()]).toEqual([1, 2]);
  });

  it('nothing below the floor counts, whatever its keywords', () => {
    expect(gateVectorHits(hits(0.45, 0.2), g, () => 1).size).toBe(0);
    expect(gateVectorHits([], g, none).size).toBe(0);
  });

  it('a weak keyword hit needs the embedder to confirm it; a strong one stands alone', () => {
    expect(keywordKept(0.5, 0.5, g)).toBe(true);
    expect(keywordKept(0.5, 0.3, g)).toBe(false);
    expect(keywordKept(0.9, 0.1, g)).toBe(true);
  });

  it('fusion never buries a strong vector hit under weak keyword hits, and agreement lifts', () => {
    const strongVector = fuse(null, 0.8);
    const weakKeywordAgreeing = fuse(0.45, 0.5);
    expect(strongVector).toBeGreaterThan(weakKeywordAgreeing);
    expect(fuse(0.6, 0.6)).toBeGreaterThan(fuse(0.6, null));
    expect(fuse(1, 1)).toBeLessThanOrEqual(1);
    expect(fuse(null, null)).toBe(0);
  });

  it('containsRun: all query terms, in order, side by side', () => {
    expect(containsRun(['kitchen', 'spare', 'batteri', 'kept'], ['spare', 'batteri'])).toBe(true);
    expect(containsRun(['batteri', 'spare', 'kept'], ['spare', 'batteri'])).toBe(false);
    expect(containsRun(['ruth', 'take', 'warfarin', 'doctor'], ['ruth', 'doctor'])).toBe(false);
    expect(containsRun(['dusti', 'charg', 'dusti', 'get', 'stuck'], ['dusti', 'get', 'stuck'])).toBe(true);
    expect(containsRun(['anna', 'allerg', 'peanut'], ['peanut'])).toBe(true); // a one-term query is a keyword lookup
    expect(containsRun(['anna', 'allerg'], ['peanut'])).toBe(false);
    expect(containsRun(['anna'], [])).toBe(false);
    expect(containsRun(['spare', 'batteri'], ['spare', 'batteri', 'drawer'])).toBe(false);
  });
});
