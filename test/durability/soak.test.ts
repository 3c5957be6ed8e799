import { describe, expect, it } from 'vitest';
import { soak } from '../../scripts/soak.js';

/** The soak, short: `npm run soak` runs it for 10 minutes by hand. */
describe('soak (short)', () => {
  it('keeps every acknowledged reading and memory under MQTT + HTTP load, with no errors', async () => {
    const r = await soak({ seconds: 12, rate: 1000, intervalSeconds: 4, log: () => undefined });
    expect(r.errors).toEqual([]);
    expect(r.acked).toBeGreaterThan(8000);
    expect(r.stored).toBeGreaterThanOrEqual(r.acked);
    expect(r.memoriesStored).toBeGreaterThanOrEqual(r.memoriesAcked);
    expect(r.samples.length).toBeGreaterThanOrEqual(3);
    // warm-up (a third of the run) is not judged; later intervals get a settled RSS
    expect(r.samples[0].settled_mb).toBeNull();
    expect(r.samples.at(-1)!.settled_mb).toBeGreaterThan(0);
  }, 60_000);
});
