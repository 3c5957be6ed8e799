import { describe, expect, it } from 'vitest';
import { soak } from '../../scripts/soak.js';

/**
 * Issue #10, "Done when": the soak with a second process (`hearth mcp`) forgetting and re-creating
 * entities every 2 s beside `serve` — short; `npm run soak -- --churn 3` runs it for minutes.
 */
describe('soak with churn (short)', () => {
  it('ends with every acknowledged reading in the series it was sent to, counted per series', async () => {
    const r = await soak({ seconds: 14, rate: 300, intervalSeconds: 7, churnSeconds: 2, log: () => undefined });
    expect(r.errors).toEqual([]);
    expect(r.shortSeries).toEqual([]);
    expect(r.stored).toBeGreaterThanOrEqual(r.acked);
    expect(r.acked).toBeGreaterThan(2000);
    const c = r.churn!;
    expect(c.problems).toEqual([]);
    expect(c.cycles).toBeGreaterThanOrEqual(4);
    expect(c.forgets).toBeGreaterThanOrEqual(3);
    expect(c.freshCreated).toBe(c.cycles);
    expect(c.victimMustExist).toBeGreaterThan(0);
  }, 90_000);
});
